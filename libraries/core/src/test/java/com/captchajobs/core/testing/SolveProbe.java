package com.captchajobs.core.testing;

import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A test's hands on a node's engine, below the public {@link com.captchajobs.core.Solves}: enqueue
 * through the engine's enqueuer, wait for an engine status, read rows. Get one from {@link
 * EngineNode#probe()} (or a Spring node's {@code probe()}).
 */
public final class SolveProbe {

  private final SolveEnqueuer enqueuer;
  private final SolveRepository repository;
  private final Sql jdbc;

  public SolveProbe(SolveEnqueuer enqueuer, SolveRepository repository, DataSource dataSource) {
    this.enqueuer = enqueuer;
    this.repository = repository;
    this.jdbc = new Sql(dataSource);
  }

  /** The page URL a test uses for a business key: the simulator counts submits per page URL. */
  public static String pageUrl(String businessKey) {
    return "https://shop.example.test/" + businessKey;
  }

  public UUID turnstile(String businessKey) {
    return enqueue(
        businessKey,
        CaptchaType.TURNSTILE,
        Map.of("sitekey", "0x4AAAAAAADnPIDROrmt1Wwj", "pageUrl", pageUrl(businessKey)));
  }

  /** A reCAPTCHA v2 solve: among the slower types (12–40 s by the documented table). */
  public UUID recaptchaV2(String businessKey) {
    return enqueue(
        businessKey,
        CaptchaType.RECAPTCHA_V2,
        Map.of(
            "sitekey",
            "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
            "pageUrl",
            pageUrl(businessKey)));
  }

  /** Gate slots held now by phantom holders (tasks that may run at the provider). */
  public int phantomSlots() {
    return jdbc()
        .queryForObject(
            "SELECT count(*) FROM captchajobs.gate_slot WHERE phantom AND lease_until > now()",
            Integer.class);
  }

  public UUID enqueue(String businessKey, CaptchaType type, Map<String, String> params) {
    return enqueuer.enqueue(businessKey, type, params, 0, null).id();
  }

  public Solve get(UUID id) {
    return repository.find(id).orElseThrow();
  }

  public Solve awaitStatus(UUID id, SolveStatus status) {
    return awaitStatus(id, status, Duration.ofSeconds(60));
  }

  public Solve awaitStatus(UUID id, SolveStatus status, Duration atMost) {
    await()
        .atMost(atMost)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> get(id).status() == status);
    return get(id);
  }

  public Solve awaitFinal(UUID id) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> get(id).status().isFinal());
    return get(id);
  }

  public String token(UUID id) {
    return jdbc.queryForObject(
        "SELECT token FROM captchajobs.solve WHERE id = ?", String.class, id);
  }

  public Sql jdbc() {
    return jdbc;
  }

  /** Every text of every row of our tables and JobRunr's jobs, for secret scans. */
  public List<String> everyStoredText() {
    List<String> texts = new ArrayList<>();
    for (String table :
        List.of(
            "captchajobs.solve",
            "captchajobs.gate_slot",
            "captchajobs.breaker",
            "captchajobs.poll",
            "captchajobs.slot_handoff",
            "captchajobs.gate_provider",
            "captchajobs.provider_health",
            "captchajobs.provider_spend",
            "captchajobs.cj_jobrunr_jobs",
            "captchajobs.cj_jobrunr_recurring_jobs",
            "captchajobs.cj_jobrunr_backgroundjobservers",
            "captchajobs.cj_jobrunr_metadata")) {
      texts.addAll(jdbc.queryForList("SELECT t::text FROM " + table + " t", String.class));
    }
    return texts;
  }
}

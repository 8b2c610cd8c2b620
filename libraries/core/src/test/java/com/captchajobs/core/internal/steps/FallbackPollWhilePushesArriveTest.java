package com.captchajobs.core.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.FirstPollWaits;
import com.captchajobs.core.internal.time.PushWatch;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.settings.SolveTimes;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the first fallback poll of a submission with a pingback URL is meant: a push that comes less
 * than 5 s after a poll of its task waits for the provider's rule, so while pushes arrive the first
 * fallback poll of a slow type waits for its upper solve time (most tasks are pushed before): the
 * documented one, or the longest recent pushed solve when that is shorter; and before any push
 * came, or once answers come by poll alone, it is one poll interval after the usual first poll. The
 * submit step on real PostgreSQL, JobRunr storage and the simulator with the engine's clock
 * stopped, as in {@link SubmitStepTest}.
 */
class FallbackPollWhilePushesArriveTest {

  static final String KEY = "fallbackPollKeyFALLBACKPOLLkey12";

  static CaptchaAiSimulator sim;
  static CaptchaAiClient client;
  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;
  static SolveRepository repository;
  static SolveTransitions transitions;
  static SolveJobs jobs;
  static FleetGate gate;
  static Breaker breaker;
  static final PollStepTest.StoppedClock clock = new PollStepTest.StoppedClock();
  static final SolveSettings settings =
      SolveSettings.builder()
          .firstPollWait(CaptchaType.RECAPTCHA_V2, Duration.ofSeconds(15))
          .build();
  static final Duration UPPER = SolveTimes.documented().get(CaptchaType.RECAPTCHA_V2).max();

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 10).build().start();
    client = CaptchaAiClient.builder().apiKey(KEY).baseUrl(sim.baseUrl()).build();
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(3);
    schema.migrate(dataSource);
    db = new Db(dataSource, schema);
    repository = new SolveRepository(dataSource, schema);
    transitions = new SolveTransitions(dataSource, schema);
    jobs =
        new SolveJobs(
            OwnJobRunr.open(dataSource, schema).scheduler(),
            clock,
            settings.pollLead(),
            settings.transientRetries(),
            JobsReady.NONE);
    gate = new FleetGate(dataSource, schema, Duration.ofMinutes(10), "fallback-node");
    gate.resize(1);
    breaker = new Breaker(dataSource, schema, "fingerprint");
  }

  @AfterAll
  static void stop() {
    dataSource.close();
    sim.close();
  }

  @BeforeEach
  void emptyTablesAndTheClockAtNow() {
    db.update("DELETE FROM captchajobs.solve");
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = NULL, node = NULL, lease_until = NULL,"
            + " phantom = false");
    db.update("DELETE FROM captchajobs.cj_jobrunr_jobs");
    clock.now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }

  /** A submit step of a worker that asks for pushes and whose answers came as {@code watch} saw. */
  static SubmitStep stepWatching(PushWatch watch) {
    return stepWatching(watch, List.of());
  }

  /** The same, on a fleet whose recent solves of every type were {@code seen}. */
  static SubmitStep stepWatching(PushWatch watch, List<SolveRepository.SolvedSample> seen) {
    SlotHandoff handoff = new SlotHandoff(gate, jobs, transitions);
    TaskOutcomes outcomes =
        new TaskOutcomes(
            repository,
            transitions,
            handoff,
            Providers.single(null, breaker, null),
            jobs,
            settings,
            EngineListener.NONE,
            clock,
            watch);
    return new SubmitStep(
        repository,
        transitions,
        gate,
        handoff,
        outcomes,
        Providers.single(client, breaker, null),
        jobs,
        new FirstPollWaits(settings, (type, n) -> seen, clock),
        settings,
        EngineListener.NONE,
        clock,
        new PingbackUrls(
            "https://node.example/captchaai/pingback",
            "a-secret-of-the-fallback-fleet-0123456789"));
  }

  /** A QUEUED reCAPTCHA v2 solve holding the only slot. */
  static UUID queuedRecaptcha() {
    UUID id = UUID.randomUUID();
    db.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status)"
            + " VALUES (?, ?, 'RECAPTCHA_V2',"
            + " '{\"sitekey\":\"6LcR_okUAAAAAPYrPe\",\"pageUrl\":\"https://a.example/\"}'::jsonb,"
            + " repeat('0', 64), 'QUEUED')",
        id,
        "fallback-" + id);
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = ?, node = 'fallback-node',"
            + " acquired_at = now(), lease_until = now() + interval '10 minutes' WHERE slot_no = 0",
        id);
    return id;
  }

  /** The instant the first poll job of the solve's first submission is meant for. */
  static long firstPollMeantAt(UUID id) {
    String json =
        db.queryOne(
                "SELECT jobasjson FROM captchajobs.cj_jobrunr_jobs WHERE id = ?",
                rs -> rs.getString(1),
                SolveJobs.pollJobId(id, 1, 1).toString())
            .orElseThrow();
    var m =
        java.util.regex.Pattern.compile("\"intendedAtEpochMilli\"\\s*:\\s*(\\d+)").matcher(json);
    assertThat(m.find()).as("the poll job's request in %s", json).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void whilePushesArriveTheFirstFallbackPollOfASlowTypeWaitsForItsDocumentedUpperSolveTime() {
    PushWatch watch = new PushWatch("https://node.example/captchaai/pingback", clock);
    watch.answered(true);
    UUID id = queuedRecaptcha();

    Step next = stepWatching(watch).submit(id, 0, null, false);

    assertThat(next).isEqualTo(Step.DONE);
    // the old code: one poll interval after the usual first poll (15 s + 5 s)
    assertThat(firstPollMeantAt(id)).isEqualTo(clock.now.plus(UPPER).toEpochMilli());
  }

  @Test
  void whilePushesArriveTheFirstFallbackPollWaitsForTheLongestRecentPushedSolveWhenThatIsShorter() {
    PushWatch watch = new PushWatch("https://node.example/captchaai/pingback", clock);
    watch.answered(true);
    List<SolveRepository.SolvedSample> seen = new java.util.ArrayList<>();
    for (int i = 0; i < 30; i++) {
      seen.add(new SolveRepository.SolvedSample(14_000 + i * 300, true)); // 14 to 22.7 s
    }
    seen.add(new SolveRepository.SolvedSample(39_000, false)); // a lost push found by a poll
    UUID id = queuedRecaptcha();

    stepWatching(watch, seen).submit(id, 0, null, false);

    // the longest pushed solve (22.7 s) and its margin, not the documented 40 s
    assertThat(firstPollMeantAt(id))
        .isEqualTo(
            clock.now.plusMillis(22_700).plus(FirstPollWaits.LONGEST_PUSHED_MARGIN).toEpochMilli());
  }

  @Test
  void beforeAnyPushCameTheFirstFallbackPollIsOnePollIntervalAfterTheUsualFirstPoll() {
    PushWatch watch = new PushWatch("https://node.example/captchaai/pingback", clock);
    UUID id = queuedRecaptcha();

    stepWatching(watch).submit(id, 0, null, false);

    assertThat(firstPollMeantAt(id))
        .isEqualTo(clock.now.plusSeconds(15).plus(settings.pollInterval()).toEpochMilli());
  }

  @Test
  void onceAnswersCameByPollAloneThreeTimesInARowTheUsualFallbackWaitIsBack() {
    PushWatch watch = new PushWatch("https://node.example/captchaai/pingback", clock);
    watch.answered(true);
    for (int i = 0; i < PushWatch.POLLED_IN_A_ROW; i++) {
      watch.answered(false);
    }
    UUID id = queuedRecaptcha();

    stepWatching(watch).submit(id, 0, null, false);

    assertThat(firstPollMeantAt(id))
        .isEqualTo(clock.now.plusSeconds(15).plus(settings.pollInterval()).toEpochMilli());
  }
}

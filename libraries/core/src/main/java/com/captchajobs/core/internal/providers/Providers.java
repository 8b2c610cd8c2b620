package com.captchajobs.core.internal.providers;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.CaptchaAiTransportException;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.gate.ProviderLanes;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PlanCheck;
import com.captchajobs.core.settings.ProviderSettings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The providers of a worker by name (docs/providers.md): the primary, {@value
 * ProviderLanes#PRIMARY}, and those beside it, each with its own client (built once, at assembly),
 * credential breaker and plan check. A solve's calls go to the provider it names: in.php to the one
 * whose slot it holds, res.php and reports to the one that accepted its task.
 */
public final class Providers {

  private static final Logger log = LoggerFactory.getLogger(Providers.class);

  /**
   * One provider.
   *
   * @param settings its settings; null for the primary ({@code captchaai.*})
   * @param planCheck its threadsinfo; null on a node without a key
   */
  public record Provider(
      String name,
      ProviderSettings settings,
      CaptchaAiClient client,
      Breaker breaker,
      PlanCheck planCheck) {

    /** The price of one solve of {@code type} here, or empty when billed by threads. */
    public Optional<BigDecimal> priceOfOne(CaptchaType type) {
      return settings == null ? Optional.empty() : settings.priceOfOne(type);
    }
  }

  private final Provider primary;
  private final Map<String, Provider> others = new LinkedHashMap<>();
  private final ProviderLanes lanes;

  /** Probes the primary after server trouble; null without others or a primary plan check. */
  private final DownProbe probe;

  /**
   * @param lanes the gate's routing of the others, null when there are none
   * @param handOff hands free slots to the waiting solves, run once the primary is judged down
   *     after server trouble ({@link DownProbe}); null: the primary is not probed
   */
  public Providers(Provider primary, List<Provider> others, ProviderLanes lanes, Runnable handOff) {
    this.primary = primary;
    others.forEach(p -> this.others.put(p.name(), p));
    this.lanes = lanes;
    this.probe =
        lanes == null || handOff == null || primary.planCheck() == null
            ? null
            : new DownProbe(this::primaryAnswers, lanes::primaryDown, handOff);
  }

  /** The primary alone, as before there were others (a node's tests). */
  public static Providers single(CaptchaAiClient client, Breaker breaker, PlanCheck planCheck) {
    return new Providers(
        new Provider(ProviderLanes.PRIMARY, null, client, breaker, planCheck),
        List.of(),
        null,
        null);
  }

  public Provider primary() {
    return primary;
  }

  /**
   * The provider {@code name}: null (a solve from before providers) is the primary, and so is a
   * name this node was not given (said at WARN: its task is asked where it cannot be).
   */
  public Provider get(String name) {
    if (name == null || others.isEmpty() || ProviderLanes.PRIMARY.equals(name)) {
      return primary;
    }
    Provider p = others.get(name);
    if (p == null) {
      log.warn("Provider {} is not configured on this node: asking the primary instead", name);
      return primary;
    }
    return p;
  }

  /** Whether there are providers beside the primary. */
  public boolean hasOthers() {
    return !others.isEmpty();
  }

  /** The primary, then the others in the order they were given. */
  public List<Provider> all() {
    List<Provider> all = new ArrayList<>();
    all.add(primary);
    all.addAll(others.values());
    return all;
  }

  public Collection<Provider> others() {
    return others.values();
  }

  /**
   * The primary's open breaker when no provider can take a solve: the primary's breaker is open and
   * so is every other's. One read when the primary's is closed.
   */
  public Optional<Breaker.State> openEverywhere() {
    Optional<Breaker.State> open = primary.breaker().openState();
    return open.isPresent()
            && others.values().stream().allMatch(p -> p.breaker().openState().isPresent())
        ? open
        : Optional.empty();
  }

  /**
   * Records, with providers beside the primary, what a call to the primary came to (its in.php,
   * res.php or threadsinfo; {@code failure} null: a real answer): a run of server trouble makes the
   * gate route to the backups ({@link ProviderLanes#primaryDown}). Nothing without others: no
   * statement on the path.
   */
  public void called(String provider, CaptchaAiException failure) {
    if (lanes == null || !ProviderLanes.PRIMARY.equals(provider)) {
      return;
    }
    boolean trouble = serverTrouble(failure);
    try {
      lanes.answered(provider, trouble);
    } catch (RuntimeException e) {
      log.warn("Could not record the primary's health: {}", e.toString());
    }
    if (trouble && probe != null) {
      probe.serverTrouble();
    }
  }

  /** One threadsinfo call to the primary, recorded; whether it gave a real answer. */
  private boolean primaryAnswers() {
    try {
      call(primary, primary.planCheck()::read);
      return true;
    } catch (CaptchaAiException e) {
      return !serverTrouble(e);
    }
  }

  /**
   * Each provider's threadsinfo by name, the primary first (those without a plan check left out),
   * as the repair pass reads it to free phantoms early; the primary's answer is recorded as any
   * other call's ({@link #called}).
   */
  public Map<String, Supplier<ThreadsInfo>> threadsInfo() {
    Map<String, Supplier<ThreadsInfo>> reads = new LinkedHashMap<>();
    for (Provider p : all()) {
      if (p.planCheck() != null) {
        reads.put(p.name(), () -> call(p, p.planCheck()::read));
      }
    }
    return reads;
  }

  /**
   * Makes {@code call} to {@code provider} and records what it came to ({@link #called}); its
   * failure is the caller's.
   */
  public <T> T call(Provider provider, Supplier<T> call) {
    try {
      T answer = call.get();
      called(provider.name(), null);
      return answer;
    } catch (CaptchaAiException e) {
      called(provider.name(), e); // server trouble counts towards the primary down
      throw e;
    }
  }

  /** A transport error (an HTML 5xx page among them) or the provider's own server error. */
  static boolean serverTrouble(CaptchaAiException e) {
    return e instanceof CaptchaAiTransportException
        || e != null
            && ("ERROR_SERVER_ERROR".equals(e.errorCode())
                || "ERROR_INTERNAL_SERVER_ERROR".equals(e.errorCode()));
  }

  /**
   * Whether the primary is judged down as the gate routes ({@link ProviderLanes#primaryDown}); one
   * read, only with providers beside it (false without).
   */
  public boolean primaryDown() {
    return lanes != null && lanes.primaryDown();
  }

  /** Which provider's slot the solve holds now (the primary's when there are no others). */
  public String slotOf(java.util.UUID solveId) {
    return lanes == null
        ? ProviderLanes.PRIMARY
        : lanes.providerOf(solveId).orElse(ProviderLanes.PRIMARY);
  }
}

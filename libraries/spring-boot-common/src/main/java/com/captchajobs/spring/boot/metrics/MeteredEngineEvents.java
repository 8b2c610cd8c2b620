package com.captchajobs.spring.boot.metrics;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.events.EngineListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Publishes the engine's events as Micrometer meters under {@code captchajobs.*}. Timers publish
 * percentile histograms (Prometheus {@code _bucket} series), never client-side percentiles, so that
 * {@code histogram_quantile} over the sum of every node's buckets is the fleet's percentile.
 */
public final class MeteredEngineEvents extends EngineListener {

  private final MeterRegistry registry;

  /**
   * The provider tag of events that name none (the older listener methods): the primary. Meters of
   * a solve's events carry {@code provider}; those of the primary are registered at zero.
   */
  static final String PRIMARY = com.captchajobs.core.settings.ProviderSettings.PRIMARY;

  /**
   * Codes the engine records itself, beside the provider's ({@link ErrorClass#knownCodes()}) and
   * the client's transport codes.
   */
  static final Map<String, ErrorClass> ENGINE_CODES =
      Map.of(
          "TIMEOUT", ErrorClass.TRANSIENT,
          "ANSWER_TOO_OLD", ErrorClass.TRANSIENT,
          "TASK_ID_NOT_STORED", ErrorClass.TRANSIENT,
          "NETWORK", ErrorClass.TRANSIENT,
          "EMPTY_BODY", ErrorClass.TRANSIENT,
          "UNRECOGNISED_BODY", ErrorClass.TRANSIENT,
          "DEADLINE_EXCEEDED", ErrorClass.DEADLINE);

  /**
   * Registers every series whose labels are known in advance at zero (each captcha type, submit
   * kind, error code with its class), so that dashboards and rate-based alerts see 0 from startup
   * instead of no series until the first event.
   */
  public MeteredEngineEvents(MeterRegistry registry) {
    this.registry = registry;
    for (CaptchaType type : CaptchaType.values()) {
      submits(PRIMARY, type, false);
      submits(PRIMARY, type, true);
      latency(PRIMARY, type);
      polls(PRIMARY, type);
      lateness(PRIMARY, type);
      tokenAge(type);
      for (Verdict verdict : Verdict.values()) {
        reports(type, verdict);
      }
      answers(PRIMARY, type, true);
      answers(PRIMARY, type, false);
    }
    handoff();
    Map<String, ErrorClass> codes = new TreeMap<>(ErrorClass.knownCodes());
    codes.putAll(ENGINE_CODES);
    codes.forEach((code, errorClass) -> errors(code, errorClass));
    for (ErrorClass errorClass : ErrorClass.values()) {
      errors(OTHER_CODE, errorClass);
    }
  }

  @Override
  public void submitted(CaptchaType type, boolean resumed) {
    submitted(PRIMARY, type, resumed);
  }

  @Override
  public void submitted(String provider, CaptchaType type, boolean resumed) {
    submits(provider, type, resumed).increment();
  }

  @Override
  public void spent(String provider, CaptchaType type, java.math.BigDecimal amount) {
    spend(registry, provider, type).increment(amount.doubleValue());
  }

  /**
   * {@code captchajobs_spend_total{provider,type}}: what a priced provider charged for the tasks
   * this node submitted to it.
   */
  public static Counter spend(MeterRegistry registry, String provider, CaptchaType type) {
    return Counter.builder("captchajobs.spend")
        .description(
            "what a provider billed per solve charged for tasks it accepted from this node")
        .tag("provider", provider)
        .tag("type", type.name())
        .register(registry);
  }

  private Counter submits(String provider, CaptchaType type, boolean resumed) {
    return Counter.builder("captchajobs.submits")
        .description("in.php submissions, and reruns that resumed a stored task id instead")
        .tag("provider", provider)
        .tag("kind", resumed ? "resumed" : "fresh")
        .tag("type", type.name())
        .register(registry);
  }

  @Override
  public void solved(CaptchaType type, Duration latency, int polls) {
    solved(PRIMARY, type, latency, polls);
  }

  @Override
  public void solved(String provider, CaptchaType type, Duration latency, int polls) {
    latency(provider, type).record(latency);
    polls(provider, type).record(polls);
  }

  private Timer latency(String provider, CaptchaType type) {
    return Timer.builder("captchajobs.solve.latency")
        .description("submit to token stored")
        .tag("provider", provider)
        .tag("type", type.name())
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofSeconds(1))
        .maximumExpectedValue(Duration.ofMinutes(10))
        .register(registry);
  }

  private DistributionSummary polls(String provider, CaptchaType type) {
    return DistributionSummary.builder("captchajobs.solve.polls")
        .description("res.php calls per solve")
        .tag("provider", provider)
        .tag("type", type.name())
        .serviceLevelObjectives(1, 2, 3, 5, 8, 13, 21, 34)
        .register(registry);
  }

  @Override
  public void answered(CaptchaType type, boolean pushed) {
    answered(PRIMARY, type, pushed);
  }

  @Override
  public void answered(String provider, CaptchaType type, boolean pushed) {
    answers(provider, type, pushed).increment();
  }

  private Counter answers(String provider, CaptchaType type, boolean pushed) {
    return Counter.builder("captchajobs.answers")
        .description(
            "answers stored, by the channel that brought them: push (a push rang and res.php"
                + " confirmed it) or poll (found by polling alone)")
        .tag("provider", provider)
        .tag("via", pushed ? "push" : "poll")
        .tag("type", type.name())
        .register(registry);
  }

  /** A code outside the known set (and its HTTP statuses) is tagged this way. */
  public static final String OTHER_CODE = "OTHER";

  private static final Pattern HTTP_STATUS = Pattern.compile("HTTP_[1-5][0-9][0-9]");

  @Override
  public void error(String code, ErrorClass errorClass) {
    errors(codeTag(code), errorClass).increment();
  }

  /**
   * The tag value of an error code: the code itself when it is one of the known codes or an HTTP
   * status, else {@value #OTHER_CODE}. A provider (or anything posing as one) answering made-up
   * codes cannot create series without end, and no tag value is taken from input.
   */
  static String codeTag(String code) {
    if (code != null
        && (ErrorClass.knownCodes().containsKey(code)
            || ENGINE_CODES.containsKey(code)
            || HTTP_STATUS.matcher(code).matches())) {
      return code;
    }
    return OTHER_CODE;
  }

  private Counter errors(String code, ErrorClass errorClass) {
    return Counter.builder("captchajobs.errors")
        .description("classified CaptchaAI errors")
        .tag("code", code)
        .tag("class", errorClass.label())
        .register(registry);
  }

  @Override
  public void polled(CaptchaType type, Duration lateness) {
    polled(PRIMARY, type, lateness);
  }

  @Override
  public void polled(String provider, CaptchaType type, Duration lateness) {
    lateness(provider, type).record(lateness.isNegative() ? Duration.ZERO : lateness);
  }

  private Timer lateness(String provider, CaptchaType type) {
    return Timer.builder("captchajobs.poll.lateness")
        .description("actual res.php call minus its intended instant (early calls count as 0)")
        .tag("provider", provider)
        .tag("type", type.name())
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(10))
        .maximumExpectedValue(Duration.ofMinutes(1))
        .register(registry);
  }

  @Override
  public void handedOff(Duration delay) {
    handoff().record(delay.isNegative() ? Duration.ZERO : delay);
  }

  private Timer handoff() {
    return Timer.builder("captchajobs.gate.handoff")
        .description("freed slot to the next in.php call of a waiting solve")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofMinutes(1))
        .register(registry);
  }

  @Override
  public void claimed(CaptchaType type, Duration age) {
    tokenAge(type).record(age.isNegative() ? Duration.ZERO : age);
  }

  private Timer tokenAge(CaptchaType type) {
    return Timer.builder("captchajobs.token.age")
        .description("token age when claimed (solved to claimed)")
        .tag("type", type.name())
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(100))
        .maximumExpectedValue(Duration.ofMinutes(5))
        .register(registry);
  }

  @Override
  public void reported(CaptchaType type, Verdict verdict) {
    reports(type, verdict).increment();
  }

  private Counter reports(CaptchaType type, Verdict verdict) {
    return Counter.builder("captchajobs.reports")
        .description("claimed answers reported by their callers, BAD or GOOD")
        .tag("type", type.name())
        .tag("verdict", verdict.name())
        .register(registry);
  }
}

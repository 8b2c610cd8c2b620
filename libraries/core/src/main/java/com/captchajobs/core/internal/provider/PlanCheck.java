package com.captchajobs.core.internal.provider;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.time.AtMostEvery;
import com.captchajobs.core.model.ProviderOutage;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the plan with {@code threadsinfo}. After a "no free thread" answer it checks, at most once
 * per interval, whether the plan has lapsed: the provider says no thread is free while none of the
 * key's threads is working. Then it opens the breaker (ERROR_ZERO_BALANCE in
 * docs/captchaai-contract.md).
 */
public final class PlanCheck {

  private static final Logger log = LoggerFactory.getLogger(PlanCheck.class);

  private final CaptchaAiClient client;
  private final Breaker breaker;
  private final Clock clock;
  private final AtMostEvery checks;
  private volatile ThreadsInfo last;

  /** The provider did not answer threadsinfo: since when, and with what; null once it answered. */
  private volatile ProviderOutage unreachable;

  public PlanCheck(CaptchaAiClient client, Breaker breaker, Clock clock, Duration minInterval) {
    this.client = client;
    this.breaker = breaker;
    this.clock = clock;
    this.checks = new AtMostEvery(minInterval, clock);
  }

  /** The last threadsinfo answer, or null. */
  public ThreadsInfo last() {
    return last;
  }

  /** Asks the provider now; a transport failure or a server error marks it unreachable. */
  public ThreadsInfo read() {
    try {
      ThreadsInfo info = client.threadsInfo();
      unreachable = null;
      last = info;
      return info;
    } catch (CaptchaAiException e) {
      if (e.errorClass() == com.captchajobs.core.client.ErrorClass.TRANSIENT) {
        ProviderOutage before = unreachable;
        unreachable =
            new ProviderOutage(before == null ? clock.instant() : before.since(), e.errorCode());
      } else {
        unreachable = null; // it answered
      }
      throw e;
    }
  }

  /** Present while the provider's last threadsinfo failed for want of an answer. */
  public java.util.Optional<ProviderOutage> unreachable() {
    return java.util.Optional.ofNullable(unreachable);
  }

  public void afterThreadsError(String code) {
    if (!checks.pass()) {
      return;
    }
    try {
      ThreadsInfo info = read();
      if (info.threads() > 0 && info.workingThreads() == 0) {
        breaker.open(
            code,
            "plan lapsed: %s while threadsinfo shows %s idle threads"
                .formatted(code, info.threads()));
        log.error(
            "Breaker OPEN: the CaptchaAI plan seems to have lapsed ({} with {} idle threads)",
            code,
            info.threads());
      }
    } catch (CaptchaAiException e) {
      log.warn("threadsinfo failed: {} ({})", e.errorCode(), e.errorClass());
    }
  }
}

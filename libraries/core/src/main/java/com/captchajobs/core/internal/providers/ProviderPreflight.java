package com.captchajobs.core.internal.providers;

import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.ThreadsInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The preflight of each provider beside the primary at a worker's start (the primary's is {@code
 * WorkerStartup}'s): its threadsinfo, where it answers one. A key it rejects opens that provider's
 * breaker only; a plan smaller than its {@code threads} is said at WARN; a provider without
 * threadsinfo (not every service of the API family has it) is said at INFO. The worker starts in
 * every case: the primary alone decides whether it may.
 *
 * <p>{@link #recheck(Providers)} is the periodic threadsinfo of the same providers (every {@code
 * captchaai.provider-check-interval}, beside the primary's): it keeps each one's last plan, and a
 * key rejected since the start opens that provider's breaker only.
 */
public final class ProviderPreflight {

  private static final Logger log = LoggerFactory.getLogger(ProviderPreflight.class);

  private ProviderPreflight() {}

  public static void check(Providers providers) {
    providers.others().forEach(ProviderPreflight::check);
  }

  /** The periodic threadsinfo of each provider beside the primary; never throws. */
  public static void recheck(Providers providers) {
    for (Providers.Provider p : providers.others()) {
      try {
        p.planCheck().read();
      } catch (CaptchaAiException e) {
        if (e.errorClass() == ErrorClass.CREDENTIAL) {
          p.breaker().keyRejected(e.errorCode(), "threadsinfo of provider " + p.name());
        } else {
          log.debug("Provider {}: threadsinfo failed ({})", p.name(), e.errorCode());
        }
      } catch (RuntimeException e) {
        log.warn("Provider {}: threadsinfo failed: {}", p.name(), e.toString());
      }
    }
  }

  private static void check(Providers.Provider p) {
    ThreadsInfo info;
    try {
      info = p.planCheck().read();
    } catch (CaptchaAiException e) {
      if (e.errorClass() == ErrorClass.CREDENTIAL) {
        p.breaker().open(e.errorCode(), "preflight threadsinfo answered " + e.errorCode());
        log.error(
            "Provider {} rejected its API key at start ({}, key {}): its breaker is OPEN, it gets"
                + " no solves until an operator closes it",
            p.name(),
            e.errorCode(),
            p.settings().keyFingerprint());
      } else {
        log.info(
            "Provider {}: no threadsinfo at start ({}); its cap is its configured threads, {}",
            p.name(),
            e.errorCode(),
            p.settings().threads());
      }
      return;
    }
    if (info.threads() < p.settings().threads()) {
      log.warn(
          "Provider {}: its plan has {} threads, fewer than its configured threads {}; the"
              + " surplus will be answered ERROR_NO_SLOT_AVAILABLE",
          p.name(),
          info.threads(),
          p.settings().threads());
    } else {
      log.info(
          "Provider {}: plan of {} threads, cap {}",
          p.name(),
          info.threads(),
          p.settings().threads());
    }
  }
}

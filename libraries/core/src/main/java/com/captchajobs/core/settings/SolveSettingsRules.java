package com.captchajobs.core.settings;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import com.captchajobs.core.client.CaptchaType;
import java.time.Duration;
import java.util.Map;

/** What {@link SolveSettings} refuses, each message naming the builder methods. */
final class SolveSettingsRules {

  private SolveSettingsRules() {}

  static void check(
      int threads,
      int threadsReserve,
      Duration lease,
      Duration solveTimeout,
      Duration solveDeadline,
      Duration pollInterval,
      Duration pollLead,
      int learnAfterSolves,
      Duration minFirstPollWait,
      int unsolvableResubmits,
      int transientRetries) {
    require(threads >= 1, "{threads(int)} must be at least 1");
    require(threadsReserve >= 0, "{threadsReserve(int)} must not be negative");
    require(
        pollInterval.compareTo(Duration.ofSeconds(5)) >= 0,
        "{pollInterval(Duration)} must be at least 5s");
    require(!pollLead.isNegative(), "{pollLead(Duration)} must not be negative");
    require(
        solveTimeout.compareTo(pollInterval) > 0,
        "{solveTimeout(Duration)} must be longer than {pollInterval(Duration)}");
    require(
        lease.compareTo(solveTimeout) > 0,
        "{lease(Duration)} must be longer than {solveTimeout(Duration)}");
    require(
        minFirstPollWait.compareTo(Duration.ofSeconds(1)) >= 0,
        "{minFirstPollWait(Duration)} must be at least 1s");
    require(
        solveDeadline.compareTo(solveTimeout) > 0,
        "{solveDeadline(Duration)} must be longer than {solveTimeout(Duration)}");
    require(unsolvableResubmits >= 0, "{unsolvableResubmits(int)} must not be negative");
    require(transientRetries >= 0, "{transientRetries(int)} must not be negative");
    require(learnAfterSolves >= 1, "{learnAfterSolves(int)} must be at least 1");
  }

  static void checkPerType(
      Map<CaptchaType, Duration> firstPollWaits, Map<CaptchaType, Duration> tokenTtl) {
    firstPollWaits.forEach(
        (type, d) ->
            require(
                d.compareTo(Duration.ofSeconds(1)) >= 0,
                "{firstPollWait(CaptchaType, Duration)}." + type + " must be at least 1s"));
    tokenTtl.forEach(
        (type, d) ->
            require(
                !d.isNegative() && !d.isZero(),
                "{tokenTtl(CaptchaType, Duration)}." + type + " must be positive"));
  }
}

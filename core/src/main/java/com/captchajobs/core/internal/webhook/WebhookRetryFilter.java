package com.captchajobs.core.internal.webhook;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.filters.RetryFilter;
import org.jobrunr.jobs.states.StateName;

/**
 * The retry policy of webhook deliveries, apart from the solve retries: the n-th retry waits about
 * {@code backoff * 2^(n-1)}, at most {@code maxBackoff}, with ±25 % jitter so that a fleet's
 * retries to one receiver do not arrive together ({@code captchajobs.webhook.backoff}, {@code
 * captchajobs.webhook.max-backoff}). The number of retries is the job's own ({@code
 * captchajobs.webhook.retries}, set when the job is created). A refused callback URL or a missing
 * secret is not retried (the job throws a JobRunr problem that must not be retried).
 */
public final class WebhookRetryFilter extends RetryFilter {

  private final long backoffSeconds;
  private final long maxBackoffSeconds;

  /**
   * @param retries retries of a job that carries no count of its own
   * @param backoff wait before the first retry (whole seconds, at least 1)
   * @param maxBackoff upper bound of one wait
   */
  public WebhookRetryFilter(int retries, Duration backoff, Duration maxBackoff) {
    super(retries);
    this.backoffSeconds = Math.max(1, backoff.toSeconds());
    this.maxBackoffSeconds = Math.max(backoffSeconds, maxBackoff.toSeconds());
  }

  @Override
  protected long getSecondsToAdd(Job job) {
    return withJitter(waitBeforeRetry(failures(job)));
  }

  /** The wait before the retry that follows the given number of failed attempts, no jitter. */
  long waitBeforeRetry(long failures) {
    long wait = backoffSeconds;
    for (long i = 1; i < failures && wait < maxBackoffSeconds; i++) {
      wait *= 2;
    }
    return Math.min(wait, maxBackoffSeconds);
  }

  private static long withJitter(long seconds) {
    double jitter = 0.75 + ThreadLocalRandom.current().nextDouble() * 0.5;
    return Math.max(1, Math.round(seconds * jitter));
  }

  private static long failures(Job job) {
    return job.getJobStates().stream().filter(StateName.FAILED_STATES).count();
  }
}

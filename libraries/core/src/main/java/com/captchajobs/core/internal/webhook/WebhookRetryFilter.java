package com.captchajobs.core.internal.webhook;

import com.captchajobs.core.internal.lanes.ClientLanes;
import com.captchajobs.core.internal.retry.Jitter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.filters.ApplyStateFilter;
import org.jobrunr.jobs.filters.JobServerFilter;
import org.jobrunr.jobs.filters.RetryFilter;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.ScheduledState;
import org.jobrunr.jobs.states.StateName;

/**
 * The retry policy of webhook deliveries, apart from the solve retries: the n-th retry waits about
 * {@code backoff * 2^(n-1)}, at most {@code maxBackoff}, with ±25 % jitter so that a fleet's
 * retries to one receiver do not arrive together ({@code captchajobs.webhook.backoff}, {@code
 * captchajobs.webhook.max-backoff}). The number of retries is the job's own ({@code
 * captchajobs.webhook.retries}, set when the job is created). A refused callback URL or a missing
 * secret is not retried (the job throws a JobRunr problem that must not be retried).
 *
 * <p>It also keeps each client to its share of this node's delivery threads ({@link ClientLanes}):
 * JobRunr runs a single election filter per job, so the share is taken here, when a delivery is
 * elected to PROCESSING, and given back once the state it leaves PROCESSING for is stored (a parked
 * delivery joins its client's queue only then). JobRunr enqueues a scheduled job up to a poll
 * interval early: a retry waits the rest first.
 */
public final class WebhookRetryFilter extends RetryFilter
    implements ApplyStateFilter, JobServerFilter {

  private final long backoffSeconds;
  private final long maxBackoffSeconds;
  private final ClientLanes lanes;

  /**
   * @param retries retries of a job that carries no count of its own
   * @param backoff wait before the first retry (whole seconds, at least 1)
   * @param maxBackoff upper bound of one wait
   * @param lanes the clients' shares of this node's delivery threads; null: no shares
   */
  public WebhookRetryFilter(int retries, Duration backoff, Duration maxBackoff, ClientLanes lanes) {
    super(retries);
    this.backoffSeconds = Math.max(1, backoff.toSeconds());
    this.maxBackoffSeconds = Math.max(backoffSeconds, maxBackoff.toSeconds());
    this.lanes = lanes;
  }

  @Override
  public void onStateElection(Job job, JobState newState) {
    if (lanes != null && newState.getName() == StateName.PROCESSING) {
      lanes.admit(job);
      return;
    }
    super.onStateElection(job, newState);
  }

  @Override
  public void onStateApplied(Job job, JobState oldState, JobState newState) {
    // once per save, for the state it stored: a parking applies DELETED, then SCHEDULED
    if (lanes != null
        && newState == job.getJobState()
        && newState.getName() != StateName.PROCESSING) {
      lanes.release(job.getId());
    }
  }

  @Override
  public void onProcessing(Job job) {
    Duration left = waitLeft(job.getJobStates(), Instant.now()); // JobRunr's own clock
    if (!left.isZero()) {
      try {
        Thread.sleep(left.toMillis() + 1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the server stops: the attempt fails and is retried
      }
    }
  }

  /** How long an attempt is early: until the retry's time (set right after its last failure). */
  static Duration waitLeft(List<JobState> states, Instant now) {
    for (int i = states.size() - 2; i >= 0; i--) {
      if (states.get(i) instanceof FailedState) {
        if (states.get(i + 1) instanceof ScheduledState retry
            && retry.getScheduledAt().isAfter(now)) {
          return Duration.between(now, retry.getScheduledAt());
        }
        return Duration.ZERO;
      }
    }
    return Duration.ZERO;
  }

  @Override
  protected long getSecondsToAdd(Job job) {
    return Jitter.spread(waitBeforeRetry(failures(job)), 1);
  }

  /**
   * The longest time from a delivery's first attempt to its last: every attempt taking its whole
   * call (twice {@code timeout}) and a JobRunr poll to start, every wait at its longest jitter. The
   * solve must still be stored for the last attempt, so retention must not be shorter.
   */
  public static Duration longestRetrySpan(
      int retries, Duration backoff, Duration maxBackoff, Duration timeout, Duration poll) {
    WebhookRetryFilter policy = new WebhookRetryFilter(retries, backoff, maxBackoff, null);
    long waits = 0;
    for (int failures = 1; failures <= retries; failures++) {
      waits += Math.round(policy.waitBeforeRetry(failures) * 1.25);
    }
    return Duration.ofSeconds(waits)
        .plus(timeout.multipliedBy(2).plus(poll).multipliedBy(retries + 1L));
  }

  /** The wait before the retry that follows the given number of failed attempts, no jitter. */
  long waitBeforeRetry(long failures) {
    long wait = backoffSeconds;
    for (long i = 1; i < failures && wait < maxBackoffSeconds; i++) {
      wait *= 2;
    }
    return Math.min(wait, maxBackoffSeconds);
  }

  private static long failures(Job job) {
    return job.getJobStates().stream().filter(StateName.FAILED_STATES).count();
  }
}

package com.captchajobs.core.internal.retry;

import com.captchajobs.core.client.CaptchaAiException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.filters.RetryFilter;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.jobs.states.JobState;

/**
 * JobRunr's retry filter, taught our error classes: a permanent CaptchaAI code (credential,
 * request, image, proxy, exhausted unsolvable) leaves the job FAILED after one attempt, the dead
 * job view of the dashboard; anything else is retried with exponential backoff plus jitter, never
 * sooner than {@link #MIN_BACKOFF} (CaptchaAI asks for 5 s before a request that met a server error
 * is repeated).
 *
 * <p>It replaces JobRunr's default RetryFilter on our own server: JobRunr keeps only the first
 * ElectStateFilter of a server, and this one is it. It never sees a host application's jobs, which
 * live in other tables.
 */
public class PermanentErrorRetryFilter extends RetryFilter {

  private static final String PERMANENT_TYPE = PermanentSolveException.class.getName();
  private static final String UNKNOWN = "UNKNOWN";

  /** The shortest wait before a failed in.php or res.php call is repeated (CaptchaAI's rule). */
  public static final Duration MIN_BACKOFF = Duration.ofSeconds(5);

  /**
   * The base of the exponential backoff: the n-th retry waits about {@code 3^n} seconds (3, 9, 27,
   * 81 …), at least {@link #MIN_BACKOFF} and at most the configured maximum ({@code
   * captchaai.max-backoff}).
   */
  public static final int BACKOFF_BASE = 3;

  private final long maxBackoffSeconds;

  /**
   * @param retries retries of a transient failure before the job stays FAILED
   * @param maxBackoffSeconds upper bound of one wait (never below {@link #MIN_BACKOFF})
   */
  public PermanentErrorRetryFilter(int retries, long maxBackoffSeconds) {
    super(retries, BACKOFF_BASE);
    this.maxBackoffSeconds = maxBackoffSeconds;
  }

  @Override
  public void onStateElection(Job job, JobState newState) {
    if (newState instanceof FailedState failed) {
      Optional<String> code = permanentCode(failed);
      if (code.isPresent()) {
        labelWithError(job, code.get());
        return;
      }
    }
    super.onStateElection(job, newState);
  }

  /** Makes a dead job's cause visible in the dashboard's FAILED list without opening it. */
  private static void labelWithError(Job job, String code) {
    List<String> labels = new ArrayList<>(job.getLabels());
    labels.removeIf(l -> l.startsWith("error:"));
    if (labels.size() >= 3) {
      labels = new ArrayList<>(labels.subList(0, 2));
    }
    labels.add(JobLabels.fit("error:" + code));
    job.setLabels(labels);
  }

  /**
   * Exponential, capped, with ±25 % jitter so that a fleet's retries do not arrive together; never
   * below {@link #MIN_BACKOFF}.
   */
  @Override
  protected long getSecondsToAdd(Job job) {
    long min = MIN_BACKOFF.toSeconds();
    long base = Math.max(min, Math.min(super.getSecondsToAdd(job), maxBackoffSeconds));
    return Jitter.spread(base, min);
  }

  /**
   * The wait before the first retry of a step that failed outside a job of its own (a solve carried
   * by another solve's job, see the engine's {@code SolveLife}): like this filter's first retry, 5
   * to 6.25 s.
   */
  public static Duration firstRetryWait() {
    long min = MIN_BACKOFF.toMillis();
    return Duration.ofMillis(ThreadLocalRandom.current().nextLong(min, min + min / 4 + 1));
  }

  /**
   * The error code when the failure is permanent, empty when it may be retried. A failure is
   * permanent by its type: a {@link PermanentSolveException}, or a {@link CaptchaAiException} whose
   * class is permanent, anywhere in the cause chain. The code comes from the live exception; a
   * failure JobRunr rebuilt from storage is labelled {@code UNKNOWN}.
   */
  static Optional<String> permanentCode(FailedState failed) {
    Throwable t;
    try {
      t = failed.getException();
    } catch (RuntimeException cannotRebuild) {
      t = null;
    }
    for (int depth = 0; t != null && depth < 10; depth++, t = t.getCause()) {
      if (t instanceof PermanentSolveException e) {
        return Optional.of(e.errorCode() == null ? UNKNOWN : e.errorCode());
      }
      if (t instanceof CaptchaAiException e && e.errorClass().permanent()) {
        return Optional.of(e.errorCode());
      }
    }
    if (PERMANENT_TYPE.equals(failed.getExceptionType())
        || PERMANENT_TYPE.equals(failed.getExceptionCauseType())) {
      return Optional.of(UNKNOWN);
    }
    return Optional.empty();
  }
}

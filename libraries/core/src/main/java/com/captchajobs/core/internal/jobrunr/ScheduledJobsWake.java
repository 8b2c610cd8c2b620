package com.captchajobs.core.internal.jobrunr;

import java.util.Objects;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.filters.ApplyStateFilter;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.StateName;

/**
 * Wakes the fleet's fetch when JobRunr's master moves scheduled jobs to ENQUEUED (a poll job, a
 * retry, a submit put off). JobRunr's master moves them every poll interval, but the workers fetch
 * enqueued jobs only every poll interval too (or when a worker thread frees up), so a scheduled job
 * could wait up to a second poll interval before it runs. With the wake-up it is fetched within
 * milliseconds of being enqueued, so a poll job needs to be scheduled only {@code
 * captchaai.poll-lead} (1 s) before its call, not a whole poll interval more (see "Dispatch" in
 * docs/architecture.md).
 *
 * <p>JobRunr runs this filter on the node whose server moved the job, after the move was saved,
 * once per job; {@link Dispatcher#scheduledEnqueued} folds them.
 */
public final class ScheduledJobsWake implements ApplyStateFilter {

  private final Runnable wake;

  /**
   * @param wake told once per job moved from SCHEDULED to ENQUEUED; must return at once
   */
  public ScheduledJobsWake(Runnable wake) {
    this.wake = Objects.requireNonNull(wake, "wake");
  }

  @Override
  public void onStateApplied(Job job, JobState oldState, JobState newState) {
    if (oldState != null
        && newState != null
        && oldState.getName() == StateName.SCHEDULED
        && newState.getName() == StateName.ENQUEUED) {
      wake.run();
    }
  }
}

package com.captchajobs.core.internal.steps;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.jobrunr.scheduling.JobBuilder.aJob;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.engine.PollJobRequest;
import com.captchajobs.core.internal.engine.PushedPollJob;
import com.captchajobs.core.internal.engine.PushedPollRequest;
import com.captchajobs.core.internal.engine.ReportJobRequest;
import com.captchajobs.core.internal.engine.SubmitJobRequest;
import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.notify.PushNotice;
import com.captchajobs.core.internal.retry.JobLabels;
import com.captchajobs.core.internal.store.Solve;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jobrunr.jobs.lambdas.JobRequest;
import org.jobrunr.scheduling.JobBuilder;
import org.jobrunr.scheduling.JobRequestScheduler;

/**
 * Creates the JobRunr jobs of a solve. Every job id is derived from the solve id and the step, so
 * creating a job twice is a no-op (JobRunr skips an existing id). Names and labels make a job
 * readable in the dashboard: type and business key, never the key or a token.
 */
public final class SolveJobs {

  private final JobRequestScheduler scheduler;
  private final Clock clock;
  private final Duration pollLead;
  private final int transientRetries;
  private final JobsReady ready;

  /**
   * @param ready told when a job is ready to run now (the node's dispatcher)
   */
  public SolveJobs(
      JobRequestScheduler scheduler,
      Clock clock,
      Duration pollLead,
      int transientRetries,
      JobsReady ready) {
    this.scheduler = scheduler;
    this.clock = clock;
    this.pollLead = pollLead;
    this.transientRetries = transientRetries;
    this.ready = ready;
  }

  public static UUID jobId(UUID solveId, String step) {
    return UUID.nameUUIDFromBytes(("captchajobs:" + solveId + ":" + step).getBytes(UTF_8));
  }

  public static UUID enqueueJobId(UUID solveId) {
    return jobId(solveId, "submit");
  }

  public static UUID pollJobId(UUID solveId, int submitNo, int pollNo) {
    return jobId(solveId, "poll:" + submitNo + ":" + pollNo);
  }

  /** The first submit job of a new solve. */
  public UUID submit(UUID solveId, CaptchaType type, String businessKey) {
    return submit(enqueueJobId(solveId), solveId, type, businessKey, 0);
  }

  /** A submit job under a given id, started at once. */
  public UUID submit(
      UUID jobId, UUID solveId, CaptchaType type, String businessKey, long slotFreedAt) {
    createSubmit(jobId, new SubmitJobRequest(solveId, slotFreedAt), type, businessKey, null);
    ready.submitReady();
    return jobId;
  }

  /**
   * A submit job under a given id, started after {@code delay} (a retry of a submit that ran inside
   * another solve's job, see {@link SolveLife}).
   */
  public UUID submitLater(
      UUID jobId, UUID solveId, CaptchaType type, String businessKey, Duration delay) {
    createSubmit(
        jobId, new SubmitJobRequest(solveId, 0), type, businessKey, Instant.now().plus(delay));
    return jobId;
  }

  private void createSubmit(
      UUID jobId, SubmitJobRequest request, CaptchaType type, String businessKey, Instant at) {
    create(
        aJob().withId(jobId).withName("Submit " + type + " " + businessKey),
        type,
        businessKey,
        request,
        at);
  }

  /** See {@link JobsReady#threadToSpare()}. */
  public boolean threadToSpare() {
    return ready.threadToSpare();
  }

  /** The poll job of {@code request}, see {@link #poll(Solve, int, int, Instant)}. */
  public UUID poll(Solve solve, PollJobRequest request) {
    return poll(
        solve,
        request.submitNo(),
        request.pollNo(),
        Instant.ofEpochMilli(request.intendedAtEpochMilli()));
  }

  /**
   * A poll job meant to call res.php at {@code intendedAt}. JobRunr may start a job up to one poll
   * interval early or late, so the job is scheduled {@code pollLead} earlier and waits for the
   * intended instant itself; when that is closer than the lead it is enqueued at once.
   */
  public UUID poll(Solve solve, int submitNo, int pollNo, Instant intendedAt) {
    return poll(pollJobId(solve.id(), submitNo, pollNo), solve, submitNo, pollNo, intendedAt);
  }

  /**
   * A poll job under a given id: a resumed task's first poll gets a fresh one, since a job of the
   * derived id may exist already, ended (JobRunr would skip the new one).
   */
  public UUID poll(UUID id, Solve solve, int submitNo, int pollNo, Instant intendedAt) {
    // JobRunr schedules on the system clock; the engine's clock may be another (a test's, or a
    // node's that is off): what counts is the distance from now, not the instant.
    Instant now = clock.instant();
    Duration delay = Duration.between(now, intendedAt.minus(pollLead));
    boolean atOnce = delay.isNegative() || delay.isZero();
    create(
        aJob()
            .withId(id)
            .withName("Poll " + solve.type() + " " + solve.businessKey() + " #" + pollNo),
        solve.type(),
        solve.businessKey(),
        new PollJobRequest(solve.id(), submitNo, pollNo, intendedAt.toEpochMilli()),
        atOnce ? null : Instant.now().plus(delay));
    if (atOnce) {
      ready.pollReady();
    }
    return id;
  }

  /** The report job of a solve; created once (its id is derived from the solve id). */
  public static UUID reportJobId(UUID solveId) {
    return jobId(solveId, "report");
  }

  /** The job that sends the solve's recorded report to the provider, started at once. */
  public UUID report(UUID solveId, CaptchaType type, String businessKey, String action) {
    UUID id = reportJobId(solveId);
    create(
        aJob().withId(id).withName(action + " " + type + " " + businessKey),
        type,
        businessKey,
        new ReportJobRequest(solveId),
        null);
    ready.submitReady(); // wakes the worker nodes: this one may have no worker

    return id;
  }

  /**
   * How long after its fetch's instant the job of a pushed fetch is due: JobRunr's master may start
   * a scheduled job up to one poll interval (5 s) early, so it starts after that instant, when the
   * workers' own fetch is normally made, and it ends on a read instead of waiting in a thread.
   */
  static final Duration PUSHED_FALLBACK_AFTER = Duration.ofSeconds(6);

  /**
   * The res.php fetch a push rings for, meant for {@code intendedAt} and timed from the task's last
   * recorded call ({@code lastCallEpochMilli}, 0 when none). Only the push that won the ring after
   * the task's call number {@code callNo} asks for it (see {@code PushRings}). The fleet's workers
   * are told first ({@link JobsReady#pushRang}; the ring is committed): one of them makes the call
   * at its instant on its own executor, outside JobRunr's queue. The {@link PushedPollJob} created
   * here is the durable fallback (a notice lost, a worker gone, an executor full), due {@link
   * #PUSHED_FALLBACK_AFTER} later: run after the fetch, it finds the call made and ends. Its id is
   * derived from the submission and the call number, so it is never created twice; any node of the
   * fleet may run it.
   */
  public UUID pushedPoll(
      Solve solve, int submitNo, int callNo, long lastCallEpochMilli, Instant intendedAt) {
    UUID id = jobId(solve.id(), "push:" + submitNo + ":call:" + callNo);
    // a worker may fetch before the job exists: the job then finds the call made
    ready.pushRang(
        new PushNotice(
            solve.id(), submitNo, callNo, lastCallEpochMilli, intendedAt.toEpochMilli()));
    Duration delay =
        Duration.between(clock.instant(), intendedAt.plus(PUSHED_FALLBACK_AFTER)); // see poll(..)
    create(
        aJob().withId(id).withName("Fetch pushed " + solve.type() + " " + solve.businessKey()),
        solve.type(),
        solve.businessKey(),
        new PushedPollRequest(solve.id(), submitNo, lastCallEpochMilli, intendedAt.toEpochMilli()),
        Instant.now().plus(delay));
    return id;
  }

  private void create(
      JobBuilder builder, CaptchaType type, String businessKey, JobRequest request, Instant at) {
    builder
        .withLabels(type.name(), label("key:" + businessKey))
        .withAmountOfRetries(transientRetries)
        .withJobRequest(request);
    if (at != null) {
      builder.scheduleAt(at);
    }
    scheduler.create(builder);
  }

  static String label(String s) {
    return JobLabels.fit(s);
  }
}

package com.captchajobs.core.internal.lanes;

import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.time.Timers;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.ConcurrentJobModificationException;
import org.jobrunr.storage.StorageProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enqueues parked deliveries again ({@link ClientLanes}): one when a share was passed to it, all of
 * a node's when it stops, so that another node takes them without waiting for their fallback. Off
 * JobRunr's threads, one at a time. A share passes only to a delivery whose parking is stored
 * (SCHEDULED in the table); one changed meanwhile by JobRunr is read again, 25 ms later and then
 * less often, for about 80 s. A delivery that ended meanwhile, or is gone, gives its share back at
 * once; one already ENQUEUED again (its fallback came first) or running keeps it.
 */
public final class ParkedDeliveries implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ParkedDeliveries.class);

  private final StorageProvider storage;
  private final ClientLanes lanes;
  private final JobsReady ready;
  private static final long RETRY_MILLIS = 25;
  private static final long MAX_RETRY_MILLIS = 1_000;
  private static final int MAX_TRIES = 100;

  /** What became of a parked delivery a share was passed to. */
  private enum Outcome {
    ENQUEUED,
    NOT_STORED_YET,
    GONE
  }

  private final ScheduledExecutorService thread = Timers.daemon("captchajobs-webhook-parked");

  public ParkedDeliveries(StorageProvider storage, ClientLanes lanes, JobsReady ready) {
    this.storage = storage;
    this.lanes = lanes;
    this.ready = ready;
  }

  /** Enqueues a parked delivery that a share was passed to. */
  public void requeue(UUID jobId) {
    thread.execute(() -> attempt(jobId, 1));
  }

  private void attempt(UUID jobId, int tries) {
    Outcome outcome = enqueue(jobId);
    if (outcome == Outcome.ENQUEUED) {
      ready.pollReady();
    } else if (outcome == Outcome.NOT_STORED_YET && tries < MAX_TRIES) {
      thread.schedule(
          () -> attempt(jobId, tries + 1),
          Math.min(RETRY_MILLIS * tries, MAX_RETRY_MILLIS),
          TimeUnit.MILLISECONDS);
    } else {
      lanes.release(jobId);
    }
  }

  /** Enqueues every parked delivery of a stopping node; their shares are not passed on. */
  public void handBack(List<UUID> jobIds) {
    long handedBack = jobIds.stream().filter(id -> enqueue(id) == Outcome.ENQUEUED).count();
    if (handedBack > 0) {
      log.info("{} parked webhook deliveries handed back to the fleet", handedBack);
    }
  }

  private Outcome enqueue(UUID jobId) {
    try {
      Job job = storage.getJobById(jobId);
      StateName state = job.getState();
      if (state == StateName.SCHEDULED) {
        job.enqueue();
        storage.save(job);
        return Outcome.ENQUEUED;
      }
      if (state == StateName.ENQUEUED) {
        return Outcome.ENQUEUED; // its fallback came first: it is fetched with the share kept
      }
      if (state == StateName.PROCESSING) {
        // fetched again and not yet admitted, unless it runs already (admitted with the share)
        return lanes.reserved(jobId) ? Outcome.NOT_STORED_YET : Outcome.ENQUEUED;
      }
      return Outcome.GONE;
    } catch (ConcurrentJobModificationException e) {
      return Outcome.NOT_STORED_YET; // JobRunr stored it meanwhile: read it again
    } catch (RuntimeException e) {
      log.debug("Parked delivery {} not enqueued: {}", jobId, e.toString());
      return Outcome.GONE;
    }
  }

  @Override
  public void close() {
    thread.shutdown();
    try {
      thread.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package com.captchajobs.core.internal.webhook;

import com.captchajobs.core.internal.jobrunr.JobsReady;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.StorageProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enqueues parked deliveries again ({@link ClientLanes}): one when a share was passed to it, all of
 * a node's when it stops, so that another node takes them without waiting for their fallback. Off
 * JobRunr's threads, one at a time; a delivery no longer SCHEDULED (its fallback came first, or it
 * is gone) gives its share back at once.
 */
final class ParkedDeliveries implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ParkedDeliveries.class);

  private final StorageProvider storage;
  private final ClientLanes lanes;
  private final JobsReady ready;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "captchajobs-webhook-parked");
            t.setDaemon(true);
            return t;
          });

  ParkedDeliveries(StorageProvider storage, ClientLanes lanes, JobsReady ready) {
    this.storage = storage;
    this.lanes = lanes;
    this.ready = ready;
  }

  /** Enqueues a parked delivery that a share was passed to. */
  void requeue(UUID jobId) {
    thread.execute(
        () -> {
          if (enqueue(jobId)) {
            ready.pollReady();
          } else {
            lanes.release(jobId);
          }
        });
  }

  /** Enqueues every parked delivery of a stopping node; their shares are not passed on. */
  void handBack(List<UUID> jobIds) {
    int handedBack = 0;
    for (UUID id : jobIds) {
      if (enqueue(id)) {
        handedBack++;
      }
    }
    if (handedBack > 0) {
      log.info("{} parked webhook deliveries handed back to the fleet", handedBack);
    }
  }

  private boolean enqueue(UUID jobId) {
    try {
      Job job = storage.getJobById(jobId);
      if (job.getState() != StateName.SCHEDULED) {
        return false;
      }
      job.enqueue();
      storage.save(job);
      return true;
    } catch (RuntimeException e) {
      // gone, or changed meanwhile (its fallback came first): nothing to enqueue
      log.debug("Parked delivery {} not enqueued: {}", jobId, e.toString());
      return false;
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

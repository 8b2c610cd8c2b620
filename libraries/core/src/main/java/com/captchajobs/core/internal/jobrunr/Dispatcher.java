package com.captchajobs.core.internal.jobrunr;

import com.captchajobs.core.internal.notify.PushNotice;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.notify.Subscription;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.locks.Lock;
import javax.sql.DataSource;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.JobSteward;
import org.jobrunr.server.tasks.steward.OnboardNewWorkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatch at the speed of the database (see "Dispatch" in docs/architecture.md). JobRunr fetches
 * enqueued jobs every poll interval (5 s at least on SQL) and when one of its worker threads frees
 * up, and it drops that second trigger while another fetch runs. Here, once a submit job is
 * created, {@code pg_notify('captchajobs_dispatch', <node>)} wakes every worker node; each one with
 * idle threads fetches at once. A wake-up is never dropped: it waits for a fetch under way to end
 * (that fetch may have read before the job was committed) and then fetches again, and wake-ups that
 * arrive meanwhile are folded into one fetch.
 *
 * <p>The job is still taken through JobRunr's own fetch (its row moves to PROCESSING under
 * JobRunr's lock), so no job runs twice and JobRunr's poll stays the fallback when a wake-up is
 * lost.
 *
 * <p>On a node without a worker only the notification is sent.
 */
public final class Dispatcher implements JobsReady, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

  private final DataSource dataSource;
  private final String node;
  private final Object signal = new Object();
  private BackgroundJobServer server;
  private Fetch fetch;
  private Subscription listening;
  private Thread thread;
  private boolean pending;
  private boolean tellFleet;
  private boolean closed;

  public Dispatcher(DataSource dataSource, String node) {
    this.dataSource = dataSource;
    this.node = Objects.requireNonNull(node, "node");
  }

  /**
   * Makes this node fetch on wake-ups: its own, and those other nodes send through {@code
   * notifications} (none when it is null: the webhook deliveries' server is woken only by its own
   * node).
   */
  public synchronized Dispatcher fetchInto(
      BackgroundJobServer server, SolveNotifications notifications) {
    if (thread != null) {
      return this;
    }
    this.server = server;
    this.fetch = Fetch.of(server.getJobSteward());
    if (notifications != null) {
      this.listening =
          notifications.addDispatchListener(
              sender -> {
                if (!node.equals(sender)) {
                  wakeUp();
                }
              });
    }
    thread =
        new Thread(
            this::run,
            notifications == null ? "captchajobs-webhook-dispatcher" : "captchajobs-dispatcher");
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  @Override
  public void submitReady() {
    wakeUp();
    tellTheFleet();
  }

  /**
   * JobRunr's master on this node moved scheduled jobs to ENQUEUED ({@link ScheduledJobsWake}):
   * every worker node is woken, as after a submit, but from the dispatcher's thread, so that the
   * master's pass is not held up and the jobs enqueued by one pass fold into one notification (or a
   * few: one per fetch under way).
   */
  public void scheduledEnqueued() {
    synchronized (signal) {
      pending = true;
      tellFleet = true;
      signal.notifyAll();
    }
  }

  private void tellTheFleet() {
    // A hint only: JobRunr's poll fetches the job anyway.
    notifyFleet(SolveNotifications.DISPATCH_CHANNEL, node, "a dispatch wake-up");
  }

  /**
   * Tells every worker node, from the caller's thread, that a push rang: one of them fetches the
   * answer at its instant (see {@link JobsReady#pushRang}). A hint only: the fetch's job stands.
   */
  @Override
  public void pushRang(PushNotice notice) {
    notifyFleet(SolveNotifications.PUSH_CHANNEL, notice.payload(), "a rung push");
  }

  private void notifyFleet(String channel, String payload, String what) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      s.setString(1, channel);
      s.setString(2, payload);
      s.execute();
    } catch (SQLException | RuntimeException e) {
      log.debug("Could not send {}: {}", what, e.toString());
    }
  }

  @Override
  public void pollReady() {
    wakeUp();
  }

  @Override
  public boolean threadToSpare() {
    BackgroundJobServer s;
    synchronized (this) {
      s = server;
    }
    return threadToSpare(s);
  }

  private static boolean threadToSpare(BackgroundJobServer s) {
    return s != null
        && s.isRunning()
        && s.getWorkDistributionStrategy().getWorkerCount()
            > s.getJobSteward().getOccupiedWorkerCount();
  }

  /** Asks this node's dispatcher thread to fetch once more; returns at once. */
  void wakeUp() {
    synchronized (signal) {
      pending = true;
      signal.notifyAll();
    }
  }

  private void run() {
    while (true) {
      boolean tell;
      synchronized (signal) {
        while (!pending && !closed) {
          try {
            signal.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        pending = false;
        tell = tellFleet;
        tellFleet = false;
      }
      if (tell) {
        tellTheFleet();
      }
      try {
        if (threadToSpare(server)) {
          fetch.now();
        }
      } catch (RuntimeException e) {
        log.warn("Dispatch fetch failed: {}", e.toString());
      }
    }
  }

  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      t = thread;
      if (listening != null) {
        listening.close();
      }
    }
    synchronized (signal) {
      closed = true;
      signal.notifyAll();
    }
    if (t != null) {
      try {
        t.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** JobRunr's fetch of enqueued jobs, run now. */
  private interface Fetch {
    void now();

    /**
     * JobRunr's own onboarding task under its own lock: waiting on the lock lets a fetch under way
     * end first, so that this one starts after the job was committed. JobRunr does not expose the
     * task, so it is read by reflection; without it the idle-thread trigger is pulled instead
     * (which JobRunr drops while a fetch runs: the poll then catches up).
     */
    static Fetch of(JobSteward steward) {
      try {
        Field taskField = JobSteward.class.getDeclaredField("onboardNewWorkTask");
        taskField.setAccessible(true);
        OnboardNewWorkTask task = (OnboardNewWorkTask) taskField.get(steward);
        Field lockField = OnboardNewWorkTask.class.getDeclaredField("reentrantLock");
        lockField.setAccessible(true);
        Lock lock = (Lock) lockField.get(task);
        return () -> {
          lock.lock();
          try {
            task.runTaskThreadSafe();
          } finally {
            lock.unlock();
          }
        };
      } catch (ReflectiveOperationException | RuntimeException e) {
        log.warn(
            "JobRunr's fetch task is not reachable ({}): dispatch wake-ups may wait for a poll",
            e.toString());
        return () -> {
          steward.notifyThreadOccupied();
          steward.notifyThreadIdle();
        };
      }
    }
  }
}

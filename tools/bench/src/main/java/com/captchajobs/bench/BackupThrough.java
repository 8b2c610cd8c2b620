package com.captchajobs.bench;

import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The provider-thread utilisation of the backup through the primary's outage, from the two
 * simulators' task records and request logs and the harness's enqueue times ({@link
 * BackupFigures}): the backup's tasks in flight while a solve it could take waited.
 */
final class BackupThrough {

  private BackupThrough() {}

  /**
   * The backup's threads through the primary's outage {@code [from, to)}.
   *
   * @param windowSeconds the outage's length
   * @param waitingSeconds of it, the time work waited: a solve the harness enqueued, not ended at
   *     either provider (its last task, at either, not ready), with no task in flight at either
   * @param util ∫ min(backup in flight, B) dt over {@code waitingSeconds} / (B × waitingSeconds);
   *     NaN when no work waited
   * @param utilWindow the same over the whole window
   * @param firstAcceptedAfter seconds from the outage's start to the backup's first acceptance in
   *     it; NaN when none
   * @param idle {@code {from, to, idle threads}} stretches, in time order, while work waited and
   *     fewer than B tasks ran at the backup (for {@link IdleCauses})
   */
  record Through(
      double windowSeconds,
      double waitingSeconds,
      double util,
      double utilWindow,
      double firstAcceptedAfter,
      List<long[]> idle) {}

  /**
   * @param backupTasks the backup simulator's task records (in flight: started → ready)
   * @param allTasks both simulators' task records (whether a solve has a task somewhere)
   * @param enqueuedAt subject to when the harness enqueued it (permanent requests left out)
   * @param end the run's end: a solve without a task waits until then
   */
  static Through through(
      List<TaskRecord> backupTasks,
      List<TaskRecord> allTasks,
      Map<String, Long> enqueuedAt,
      int threads,
      long from,
      long to,
      long end) {
    return through(backupTasks, allTasks, Map.of(), enqueuedAt, threads, from, to, end);
  }

  /**
   * {@link #through}, where a solve also does not wait while {@code bound} to a task whose answer
   * is ready but not yet delivered ({@link #awaitingDelivery}): that answer may still come, so
   * never-paid-twice keeps the solve from any other provider's thread.
   */
  static Through through(
      List<TaskRecord> backupTasks,
      List<TaskRecord> allTasks,
      Map<String, List<long[]>> bound,
      Map<String, Long> enqueuedAt,
      int threads,
      long from,
      long to,
      long end) {
    Map<String, List<long[]>> busy = new HashMap<>();
    Map<String, Long> last = new HashMap<>();
    TreeSet<Long> cuts = new TreeSet<>(List.of(from, to));
    for (TaskRecord t : allTasks) {
      if (t.subject() == null) {
        continue;
      }
      long ready = t.readyAt() == TaskRecord.NOT_STARTED ? end : t.readyAt();
      busy.computeIfAbsent(t.subject(), k -> new ArrayList<>())
          .add(new long[] {t.acceptedAt(), ready});
      for (long[] b : bound.getOrDefault(t.subject(), List.of())) {
        cuts.add(b[0]);
        cuts.add(b[1]);
      }
      last.merge(t.subject(), ready, Math::max);
      cuts.add(t.acceptedAt());
      cuts.add(ready);
    }
    List<long[]> running = new ArrayList<>();
    long firstAccepted = Long.MAX_VALUE;
    for (TaskRecord t : backupTasks) {
      if (t.startedAt() != TaskRecord.NOT_STARTED) {
        long ready = t.readyAt() == TaskRecord.NOT_STARTED ? end : t.readyAt();
        running.add(new long[] {t.startedAt(), ready});
        cuts.add(t.startedAt());
        cuts.add(ready);
      }
      if (t.acceptedAt() >= from && t.acceptedAt() < to) {
        firstAccepted = Math.min(firstAccepted, t.acceptedAt());
      }
    }
    enqueuedAt.values().forEach(cuts::add);
    bound.forEach((subject, b) -> busy.computeIfAbsent(subject, k -> new ArrayList<>()).addAll(b));
    double waiting = 0;
    double busyWaiting = 0;
    double busyWindow = 0;
    List<long[]> idle = new ArrayList<>();
    Long prev = null;
    for (long cut : cuts.subSet(from, true, to, true)) {
      if (prev != null) {
        long a = prev;
        long len = cut - a;
        int inFlight = 0;
        for (long[] r : running) {
          if (a >= r[0] && a < r[1]) {
            inFlight++;
          }
        }
        double used = (double) Math.min(inFlight, threads) * len;
        busyWindow += used;
        if (workWaits(a, enqueuedAt, busy, last, end)) {
          waiting += len;
          busyWaiting += used;
          if (inFlight < threads && len > 0) {
            idle.add(new long[] {a, cut, threads - inFlight});
          }
        }
      }
      prev = cut;
    }
    double window = to - from;
    return new Through(
        window / 1000,
        waiting / 1000,
        waiting == 0 ? Double.NaN : busyWaiting / (threads * waiting),
        window <= 0 ? Double.NaN : busyWindow / (threads * window),
        firstAccepted == Long.MAX_VALUE ? Double.NaN : (firstAccepted - from) / 1000.0,
        idle);
  }

  /**
   * Per subject, the stretches in which a solve is bound to a task whose answer is ready at its
   * provider but has not reached the engine: from the answer's ready until the delivery the engine
   * kept (the last get that returned it before the subject's next task, that provider's request
   * log: a worker killed between a get and storing its answer leaves the solve waiting for the
   * next), else until the subject's next task's acceptance at either provider, or {@code end}. Such
   * a solve waits for its answer, not for a thread: no provider may take it while that task may
   * still answer.
   */
  static Map<String, List<long[]>> awaitingDelivery(
      List<BackupLedger.Provider> providers, long end) {
    Map<String, List<Long>> accepted = new HashMap<>();
    for (BackupLedger.Provider p : providers) {
      for (TaskRecord t : p.tasks()) {
        if (t.subject() != null) {
          accepted.computeIfAbsent(t.subject(), k -> new ArrayList<>()).add(t.acceptedAt());
        }
      }
    }
    Map<String, List<long[]>> out = new HashMap<>();
    for (BackupLedger.Provider p : providers) {
      Map<Long, List<RequestRecord>> gets = p.gets();
      for (TaskRecord t : p.tasks()) {
        if (t.subject() == null || t.readyAt() == TaskRecord.NOT_STARTED) {
          continue;
        }
        long next = end;
        for (long a : accepted.get(t.subject())) {
          if (a > t.acceptedAt()) {
            next = Math.min(next, a);
          }
        }
        long kept = ProviderLedger.lastDelivery(t, gets.getOrDefault(t.id(), List.of()), next);
        long until = kept > 0 ? kept : next;
        if (until > t.readyAt()) {
          out.computeIfAbsent(t.subject(), k -> new ArrayList<>())
              .add(new long[] {t.readyAt(), until});
        }
      }
    }
    return out;
  }

  private static boolean workWaits(
      long a,
      Map<String, Long> enqueuedAt,
      Map<String, List<long[]>> busy,
      Map<String, Long> last,
      long end) {
    for (var e : enqueuedAt.entrySet()) {
      long until = Math.min(last.getOrDefault(e.getKey(), end), end);
      if (a >= e.getValue()
          && a < until
          && busy.getOrDefault(e.getKey(), List.of()).stream()
              .noneMatch(b -> a >= b[0] && a < b[1])) {
        return true;
      }
    }
    return false;
  }
}

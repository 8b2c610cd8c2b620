package com.captchajobs.bench;

import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.SpendRecord;
import com.captchajobs.simulator.TaskRecord;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The figures of a run with a backup provider, counted from the two simulators' own records (task
 * records, request logs, push logs, spend) and the harness's enqueue, kill and outage times only,
 * never from the engine's tables. Each simulator's task ids are its own: records are never matched
 * across simulators by id, only by subject (page URL or image hash: the business key).
 */
final class BackupLedger {

  private BackupLedger() {}

  /** One simulator's records: its tasks, request log and push log. */
  record Provider(
      String name, List<TaskRecord> tasks, List<RequestRecord> requests, List<PushRecord> pushes) {

    /** res.php gets per task id. */
    Map<Long, List<RequestRecord>> gets() {
      Map<Long, List<RequestRecord>> out = new HashMap<>();
      for (RequestRecord r : requests) {
        if (r.resGet() && r.taskId() != 0) {
          out.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r);
        }
      }
      return out;
    }
  }

  // ---- provider-thread utilisation of the backup through the primary's outage ----

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
   * provider but has not reached the engine: from the answer's ready until its first delivery (a
   * get that returned it, that provider's request log), the subject's next task's acceptance at
   * either provider, or {@code end}, whichever comes first. Such a solve waits for its answer, not
   * for a thread: no provider may take it while that task may still answer.
   */
  static Map<String, List<long[]>> awaitingDelivery(List<Provider> providers, long end) {
    Map<String, List<Long>> accepted = new HashMap<>();
    for (Provider p : providers) {
      for (TaskRecord t : p.tasks()) {
        if (t.subject() != null) {
          accepted.computeIfAbsent(t.subject(), k -> new ArrayList<>()).add(t.acceptedAt());
        }
      }
    }
    Map<String, List<long[]>> out = new HashMap<>();
    for (Provider p : providers) {
      Map<Long, List<RequestRecord>> gets = p.gets();
      for (TaskRecord t : p.tasks()) {
        if (t.subject() == null || t.readyAt() == TaskRecord.NOT_STARTED) {
          continue;
        }
        long delivered =
            ProviderLedger.firstDelivery(t, gets.getOrDefault(t.id(), List.of()), List.of());
        long until = delivered > 0 ? delivered : end;
        for (long next : accepted.get(t.subject())) {
          if (next > t.acceptedAt()) {
            until = Math.min(until, next);
          }
        }
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

  // ---- solves completed during the outage ----

  /**
   * Solves whose answer reached the engine inside {@code [from, to)}, per provider: solved tasks
   * whose first delivery (the first res.php get that returned the answer, that simulator's request
   * log) lies in the window, counted once per subject.
   */
  static Map<String, Long> completedIn(List<Provider> providers, long from, long to) {
    Map<String, Long> out = new java.util.LinkedHashMap<>();
    Set<String> counted = new HashSet<>();
    for (Provider p : providers) {
      Map<Long, List<RequestRecord>> gets = p.gets();
      long n = 0;
      for (TaskRecord t : p.tasks()) {
        if (!"SOLVED".equals(t.outcome()) || t.subject() == null) {
          continue;
        }
        long d = ProviderLedger.firstDelivery(t, gets.getOrDefault(t.id(), List.of()), List.of());
        if (d >= from && d < to && counted.add(t.subject())) {
          n++;
        }
      }
      out.put(p.name(), n);
    }
    return out;
  }

  // ---- spend ----

  /**
   * A provider's spend from its own spend rows.
   *
   * @param total every row added up
   * @param tasks tasks charged
   * @param byType amount per captcha type
   * @param byDay amount per UTC day
   */
  record Spend(
      BigDecimal total, long tasks, Map<String, BigDecimal> byType, Map<String, BigDecimal> byDay) {

    /** The largest amount of one UTC day; 0 when none. */
    BigDecimal maxDay() {
      return byDay.values().stream().max(Comparator.naturalOrder()).orElse(BigDecimal.ZERO);
    }
  }

  static Spend spend(List<SpendRecord> rows) {
    BigDecimal total = BigDecimal.ZERO;
    long tasks = 0;
    Map<String, BigDecimal> byType = new TreeMap<>();
    Map<String, BigDecimal> byDay = new TreeMap<>();
    for (SpendRecord r : rows) {
      total = total.add(r.amount());
      tasks += r.tasks();
      byType.merge(r.type(), r.amount(), BigDecimal::add);
      byDay.merge(r.day(), r.amount(), BigDecimal::add);
    }
    return new Spend(total, tasks, byType, byDay);
  }

  // ---- pages paid at two providers ----

  /**
   * A business key accepted at one provider and then at another while the first task could still
   * answer.
   *
   * @param first the provider of the earlier task
   * @param second the provider of the later one
   * @param cause why, as far as the first provider's logs and the harness's kills tell ({@link
   *     ProviderLedger.Cause#LOST_REPLY} or {@link ProviderLedger.Cause#KILL}: the engine never
   *     knew the first task; {@link ProviderLedger.Cause#UNEXPLAINED} otherwise)
   */
  record TwoProviders(ProviderLedger.Pair pair, String first, String second) {
    ProviderLedger.Cause cause() {
      return pair.cause();
    }

    String describe() {
      return first + " then " + second + ", " + pair.describe();
    }
  }

  /**
   * Every business key with a task at two providers where the later task was accepted while the
   * earlier one, at the other provider, could still answer: the rules of {@link
   * ProviderLedger#duplicates} applied to the pair with the earlier provider's own logs, a pair
   * they find by design (the earlier task answered an error code or {@code ERROR_WRONG_CAPTCHA_ID},
   * its answer was older than the token lifetime, or it had no answer within the solve timeout)
   * left out. One entry per business key: its first such pair.
   */
  static List<TwoProviders> paidAtTwo(
      List<Provider> providers,
      List<Long> kills,
      Map<String, String> labels,
      Map<String, Duration> tokenLifetimeByMethod,
      Duration solveTimeout) {
    record Tagged(Provider provider, TaskRecord task) {}
    Map<String, List<Tagged>> bySubject = new TreeMap<>();
    // by identity: a record's own hash would walk every task it holds
    Map<Provider, Map<Long, RequestRecord>> created = new IdentityHashMap<>();
    Map<Provider, Map<Long, List<RequestRecord>>> gets = new IdentityHashMap<>();
    Map<Provider, Map<Long, List<PushRecord>>> pushes = new IdentityHashMap<>();
    for (Provider p : providers) {
      for (TaskRecord t : p.tasks()) {
        if (t.subject() != null) {
          bySubject.computeIfAbsent(t.subject(), k -> new ArrayList<>()).add(new Tagged(p, t));
        }
      }
      Map<Long, RequestRecord> in = new HashMap<>();
      p.requests().stream()
          .filter(r -> RequestRecord.IN.equals(r.endpoint()) && r.taskId() != 0)
          .forEach(r -> in.put(r.taskId(), r));
      created.put(p, in);
      gets.put(p, p.gets());
      Map<Long, List<PushRecord>> accepted = new HashMap<>();
      p.pushes().stream()
          .filter(x -> x.status() >= 200 && x.status() < 300)
          .forEach(x -> accepted.computeIfAbsent(x.taskId(), k -> new ArrayList<>()).add(x));
      pushes.put(p, accepted);
    }
    List<TwoProviders> out = new ArrayList<>();
    for (var e : bySubject.entrySet()) {
      List<Tagged> list = new ArrayList<>(e.getValue());
      list.sort(Comparator.comparingLong(x -> x.task().acceptedAt()));
      String key = labels.getOrDefault(e.getKey(), e.getKey());
      TwoProviders found = null;
      for (int j = 1; j < list.size() && found == null; j++) {
        Tagged n = list.get(j);
        for (int i = 0; i < j && found == null; i++) {
          Tagged b = list.get(i);
          if (b.provider() == n.provider()) {
            continue;
          }
          ProviderLedger.Pair pair =
              ProviderLedger.cause(
                  key,
                  b.task(),
                  n.task(),
                  created.get(b.provider()).get(b.task().id()),
                  gets.get(b.provider()).getOrDefault(b.task().id(), List.of()),
                  pushes.get(b.provider()).getOrDefault(b.task().id(), List.of()),
                  kills,
                  tokenLifetimeByMethod.get(b.task().method()),
                  solveTimeout);
          if (pair.cause().kind != ProviderLedger.Kind.BY_DESIGN) {
            found = new TwoProviders(pair, b.provider().name(), n.provider().name());
          }
        }
      }
      if (found != null) {
        out.add(found);
      }
    }
    return out;
  }
}

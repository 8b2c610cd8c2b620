package com.captchajobs.bench;

import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The figures that judge the engine, counted from the provider's side only: the simulator's request
 * log, task records and push log, plus what the harness itself did (when it enqueued each solve,
 * when it killed a worker, when an outage began and ended). Nothing here reads the engine's tables
 * or logs: a retried poll, a poll whose row was lost or a log line never written cannot change a
 * figure.
 */
final class ProviderLedger {

  /** CaptchaAI's rule: one {@code res.php} get per task every 5 s. */
  static final long POLL_SPACING_MILLIS = 5_000;

  private ProviderLedger() {}

  // ---- res.php spacing per task ----

  /**
   * res.php gets as the provider received them (faulted ones included: they reached its door), per
   * task: the shortest gap between two gets of one task and how many gaps were under 5 s.
   *
   * @param gets every get that named a task
   * @param tasks tasks polled at least once
   * @param shortestMillis the shortest gap between two gets of one task; -1 when no task had two
   * @param gapsUnder5s gaps under 5 s, over all tasks
   * @param tasksUnder5s tasks with at least one such gap
   * @param examples the first few such gaps, described
   */
  record Spacing(
      long gets,
      long tasks,
      long shortestMillis,
      long gapsUnder5s,
      long tasksUnder5s,
      List<String> examples) {}

  static Spacing spacing(List<RequestRecord> requests) {
    Map<Long, List<Long>> byTask = new TreeMap<>();
    long gets = 0;
    for (RequestRecord r : requests) {
      if (r.resGet() && r.taskId() != 0) {
        gets++;
        byTask.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r.at());
      }
    }
    long shortest = -1;
    long under = 0;
    long tasksUnder = 0;
    List<String> examples = new ArrayList<>();
    for (var e : byTask.entrySet()) {
      long[] at = e.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
      boolean any = false;
      for (int i = 1; i < at.length; i++) {
        long gap = at[i] - at[i - 1];
        shortest = shortest < 0 ? gap : Math.min(shortest, gap);
        if (gap < POLL_SPACING_MILLIS) {
          under++;
          any = true;
          if (examples.size() < 5) {
            examples.add("task " + e.getKey() + ": " + gap + " ms");
          }
        }
      }
      if (any) {
        tasksUnder++;
      }
    }
    return new Spacing(gets, byTask.size(), shortest, under, tasksUnder, List.copyOf(examples));
  }

  // ---- paid duplicates per business key ----

  /** Why a business key has a second task, as far as the provider's side and the harness tell. */
  enum Cause {
    LOST_REPLY("in.php reply lost (simulator fault)", Kind.EXPLAINED),
    KILL("worker killed before it used the task (never asked about)", Kind.EXPLAINED),
    FORGOT("the provider answered ERROR_WRONG_CAPTCHA_ID", Kind.BY_DESIGN),
    ERROR_ANSWER("the provider answered an error code for the task", Kind.BY_DESIGN),
    TOO_OLD("answer ready longer ago than its token lifetime", Kind.BY_DESIGN),
    NO_ANSWER("no answer within the solve timeout", Kind.BY_DESIGN),
    UNEXPLAINED("not explained", Kind.UNEXPLAINED);

    final String label;
    final Kind kind;

    Cause(String label, Kind kind) {
      this.label = label;
      this.kind = kind;
    }
  }

  enum Kind {
    EXPLAINED,
    BY_DESIGN,
    UNEXPLAINED
  }

  /** A business key's task and the one after it, with the cause found. */
  record Pair(String businessKey, TaskRecord before, TaskRecord next, Cause cause, String detail) {
    String describe() {
      return businessKey
          + ": task "
          + before.id()
          + " then "
          + next.id()
          + " ("
          + cause.label
          + (detail.isEmpty() ? "" : "; " + detail)
          + ")";
    }
  }

  /**
   * @param paid tasks the provider accepted and worked on beyond one per business key
   * @param accepted tasks accepted beyond one per business key (a task never started included)
   * @param keys business keys with more than one accepted task
   * @param pairs every second (third, ...) task with the cause of the one before it
   */
  record Duplicates(long paid, long accepted, long keys, List<Pair> pairs) {
    long count(Kind kind) {
      return pairs.stream().filter(p -> p.cause().kind == kind).count();
    }

    Map<String, Long> byCause() {
      Map<String, Long> out = new LinkedHashMap<>();
      for (Cause c : Cause.values()) {
        long n = pairs.stream().filter(p -> p.cause() == c).count();
        if (n > 0) {
          out.put(c.label, n);
        }
      }
      return out;
    }

    List<String> described(Kind kind, int limit) {
      return pairs.stream()
          .filter(p -> p.cause().kind == kind)
          .limit(limit)
          .map(Pair::describe)
          .toList();
    }
  }

  /**
   * Tasks grouped by subject (page URL, or image hash: every solve has its own), so by business
   * key; {@code labels} (subject to business key, from the harness) only names them.
   *
   * <p>The cause of a pair (task b, then task n for the same key), first match:
   *
   * <ol>
   *   <li>the in.php call that created b was answered by a {@code LOST_RESPONSE} fault: explained;
   *   <li>nobody ever asked about b (no res.php get named it, faulted or not, no push of it was
   *       accepted) and the harness killed a worker between b's acceptance and n's: explained;
   *   <li>a get of b delivered {@code ERROR_WRONG_CAPTCHA_ID} before n: by design;
   *   <li>b ended in an error code that was delivered (a get or an accepted push): by design;
   *   <li>b's answer was ready, and when it reached the engine (its last delivery before n: a
   *       worker killed between a get and storing the answer makes the engine get it again; or,
   *       undelivered, when n came) it had been ready longer than the type's token lifetime: by
   *       design;
   *   <li>b was not ready when n came, {@code solveTimeout} or more after b: by design;
   *   <li>otherwise not explained.
   * </ol>
   */
  static Duplicates duplicates(
      List<TaskRecord> tasks,
      List<RequestRecord> requests,
      List<PushRecord> pushes,
      List<Long> kills,
      Map<String, String> labels,
      Map<String, Duration> tokenLifetimeByMethod,
      Duration solveTimeout) {
    Map<Long, RequestRecord> created = new HashMap<>();
    Map<Long, List<RequestRecord>> gets = new HashMap<>();
    for (RequestRecord r : requests) {
      if (RequestRecord.IN.equals(r.endpoint()) && r.taskId() != 0) {
        created.put(r.taskId(), r);
      } else if (r.resGet() && r.taskId() != 0) {
        gets.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r);
      }
    }
    Map<Long, List<PushRecord>> accepted = new HashMap<>();
    for (PushRecord p : pushes) {
      if (p.status() >= 200 && p.status() < 300) {
        accepted.computeIfAbsent(p.taskId(), k -> new ArrayList<>()).add(p);
      }
    }
    Map<String, List<TaskRecord>> bySubject =
        tasks.stream()
            .filter(t -> t.subject() != null)
            .collect(Collectors.groupingBy(TaskRecord::subject, TreeMap::new, Collectors.toList()));
    long paid = 0;
    long extra = 0;
    long keys = 0;
    List<Pair> pairs = new ArrayList<>();
    for (var e : bySubject.entrySet()) {
      List<TaskRecord> list = new ArrayList<>(e.getValue());
      list.sort(Comparator.comparingLong(TaskRecord::acceptedAt).thenComparingLong(TaskRecord::id));
      paid += Math.max(0, list.stream().filter(TaskRecord::workedOn).count() - 1);
      extra += list.size() - 1;
      if (list.size() > 1) {
        keys++;
      }
      String key = labels.getOrDefault(e.getKey(), e.getKey());
      for (int i = 1; i < list.size(); i++) {
        TaskRecord b = list.get(i - 1);
        TaskRecord n = list.get(i);
        pairs.add(
            cause(
                key,
                b,
                n,
                created.get(b.id()),
                gets.getOrDefault(b.id(), List.of()),
                accepted.getOrDefault(b.id(), List.of()),
                kills,
                tokenLifetimeByMethod.get(b.method()),
                solveTimeout));
      }
    }
    return new Duplicates(paid, extra, keys, List.copyOf(pairs));
  }

  /** The cause of one pair: the rules of {@link #duplicates}, with b's own logs. */
  static Pair cause(
      String key,
      TaskRecord b,
      TaskRecord n,
      RequestRecord createdBy,
      List<RequestRecord> gets,
      List<PushRecord> pushesAccepted,
      List<Long> kills,
      Duration lifetime,
      Duration solveTimeout) {
    if (createdBy != null && "LOST_RESPONSE".equals(createdBy.fault())) {
      return new Pair(key, b, n, Cause.LOST_REPLY, "");
    }
    if (gets.isEmpty() && pushesAccepted.isEmpty()) {
      boolean killed = kills.stream().anyMatch(k -> k >= b.acceptedAt() && k <= n.acceptedAt());
      return new Pair(
          key,
          b,
          n,
          killed ? Cause.KILL : Cause.UNEXPLAINED,
          killed ? "" : "never asked about, no kill between the two");
    }
    if (gets.stream()
        .anyMatch(
            g ->
                g.delivered()
                    && g.at() <= n.acceptedAt()
                    && "ERROR_WRONG_CAPTCHA_ID".equals(g.outcome()))) {
      return new Pair(key, b, n, Cause.FORGOT, "");
    }
    long delivered = firstDelivery(b, gets, pushesAccepted);
    if (!"SOLVED".equals(b.outcome()) && delivered > 0 && delivered <= n.acceptedAt()) {
      return new Pair(key, b, n, Cause.ERROR_ANSWER, b.outcome());
    }
    boolean ready = b.readyAt() != TaskRecord.NOT_STARTED && b.readyAt() <= n.acceptedAt();
    if (ready) {
      // the delivery the engine kept: it never asks again for an answer it stored
      long kept = lastDelivery(b, gets, n.acceptedAt());
      long seen = kept > 0 ? kept : n.acceptedAt();
      long age = seen - b.readyAt();
      boolean tooOld = lifetime != null && age > lifetime.toMillis();
      return new Pair(
          key,
          b,
          n,
          tooOld ? Cause.TOO_OLD : Cause.UNEXPLAINED,
          "ready "
              + Figures.fmt(age / 1000.0, 1)
              + " s before it was "
              + (kept == 0
                  ? "replaced, never delivered"
                  : kept == delivered
                      ? "first delivered"
                      : "last delivered (not kept the first time, "
                          + Figures.fmt((kept - delivered) / 1000.0, 1)
                          + " s before: a worker killed before storing it)")
              + (lifetime == null ? "" : ", token lifetime " + lifetime.toSeconds() + " s"));
    }
    long waited = n.acceptedAt() - b.acceptedAt();
    boolean timedOut = waited >= solveTimeout.toMillis();
    return new Pair(
        key,
        b,
        n,
        timedOut ? Cause.NO_ANSWER : Cause.UNEXPLAINED,
        "not ready after " + Figures.fmt(waited / 1000.0, 1) + " s");
  }

  /**
   * When the task's answer (or error code) first reached the engine: a delivered get that answered
   * it; 0 when never. A push is only a doorbell (the engine stores what res.php says, never what
   * was pushed), so {@code pushes} deliver nothing: the confirming get does.
   */
  /**
   * When the engine got the answer it kept: the last delivered get that answered the task at or
   * before {@code atOrBefore} (0: none). The engine never asks again for an answer it stored, so a
   * later delivery of the same answer means the one before did not reach its store (the worker that
   * made the get was killed before storing it).
   */
  static long lastDelivery(TaskRecord t, List<RequestRecord> gets, long atOrBefore) {
    long last = 0;
    for (RequestRecord g : gets) {
      if (g.delivered() && answers(t, g) && g.at() <= atOrBefore) {
        last = Math.max(last, g.at());
      }
    }
    return last;
  }

  private static boolean answers(TaskRecord t, RequestRecord g) {
    return "SOLVED".equals(t.outcome())
        ? "OK".equals(g.outcome())
        : t.outcome().equals(g.outcome());
  }

  static long firstDelivery(TaskRecord t, List<RequestRecord> gets, List<PushRecord> pushes) {
    long first = Long.MAX_VALUE;
    for (RequestRecord g : gets) {
      if (g.delivered() && answers(t, g)) {
        first = Math.min(first, g.at());
      }
    }
    return first == Long.MAX_VALUE ? 0 : first;
  }

  /** Ready → first delivery (a get that answered it), per method, seconds. */
  static Map<String, List<Double>> fetchLags(
      List<TaskRecord> tasks, List<RequestRecord> requests, List<PushRecord> pushes) {
    Map<Long, List<RequestRecord>> gets = new HashMap<>();
    for (RequestRecord r : requests) {
      if (r.resGet() && r.taskId() != 0) {
        gets.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r);
      }
    }
    Map<Long, List<PushRecord>> accepted = new HashMap<>();
    for (PushRecord p : pushes) {
      if (p.status() >= 200 && p.status() < 300) {
        accepted.computeIfAbsent(p.taskId(), k -> new ArrayList<>()).add(p);
      }
    }
    Map<String, List<Double>> out = new TreeMap<>();
    for (TaskRecord t : tasks) {
      if (t.readyAt() == TaskRecord.NOT_STARTED || !"SOLVED".equals(t.outcome())) {
        continue;
      }
      long d =
          firstDelivery(
              t, gets.getOrDefault(t.id(), List.of()), accepted.getOrDefault(t.id(), List.of()));
      if (d > 0) {
        out.computeIfAbsent(t.method(), k -> new ArrayList<>()).add((d - t.readyAt()) / 1000.0);
      }
    }
    return out;
  }

  /**
   * Ready → first delivery of every solved task's answer, seconds, split by whether the answer
   * became ready inside one of {@code outages} ({@code [from, to)}, the harness's provider and
   * database outage windows) or outside them.
   *
   * @return {@code [0]} the lags of answers ready outside every outage, {@code [1]} inside one
   */
  static List<List<Double>> fetchLagsByOutage(
      List<TaskRecord> tasks, List<RequestRecord> requests, List<long[]> outages) {
    Map<Long, List<RequestRecord>> gets = new HashMap<>();
    for (RequestRecord r : requests) {
      if (r.resGet() && r.taskId() != 0) {
        gets.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r);
      }
    }
    List<Double> outside = new ArrayList<>();
    List<Double> inside = new ArrayList<>();
    for (TaskRecord t : tasks) {
      if (t.readyAt() == TaskRecord.NOT_STARTED || !"SOLVED".equals(t.outcome())) {
        continue;
      }
      long d = firstDelivery(t, gets.getOrDefault(t.id(), List.of()), List.of());
      if (d <= 0) {
        continue;
      }
      boolean during = outages.stream().anyMatch(o -> t.readyAt() >= o[0] && t.readyAt() < o[1]);
      (during ? inside : outside).add((d - t.readyAt()) / 1000.0);
    }
    return List.of(outside, inside);
  }

  // ---- provider threads: utilisation and idle paid threads ----

  /**
   * Over the run, outside outage windows, while work waits (a solve the harness enqueued that is
   * not ended at the provider and has no task there): the provider's threads in use against the
   * fleet cap and against the plan, and the time a thread stood idle.
   *
   * @param waitingSeconds time with work waiting, outside outage windows
   * @param utilCap ∫ in flight dt / (C × waitingSeconds)
   * @param utilPlan ∫ in flight dt / (plan × waitingSeconds)
   * @param idleCapSeconds time with work waiting and fewer than C tasks in flight
   * @param longestIdleCap the longest stretch of it, seconds
   * @param longestIdleCapFrom where it began, epoch millis (0 when none)
   * @param idlePlanSeconds time with work waiting and fewer than the plan's threads in flight
   * @param longestIdlePlan the longest stretch of it, seconds
   * @param idle the stretches counted in {@code idleCapSeconds}, in time order: {@code {from, to,
   *     idle threads}} (C minus the tasks in flight), for {@link IdleCauses}
   */
  record Occupancy(
      double waitingSeconds,
      double utilCap,
      double utilPlan,
      double idleCapSeconds,
      double longestIdleCap,
      long longestIdleCapFrom,
      double idlePlanSeconds,
      double longestIdlePlan,
      List<long[]> idle) {}

  /**
   * A solve the harness enqueued at {@code enqueuedAt}: it waits from then until the last of its
   * tasks is ready (or the run's end), except while one of its tasks is at the provider (accepted,
   * not yet ready).
   *
   * @param enqueuedAt subject (page URL or image hash) to when the harness enqueued it; solves the
   *     provider rejects at in.php (no task ever) are left out by the caller
   * @param outages {@code [from, to]} windows (provider and database outages) left out
   */
  static Occupancy occupancy(
      List<TaskRecord> tasks,
      Map<String, Long> enqueuedAt,
      List<long[]> outages,
      int cap,
      int plan,
      long start,
      long end) {
    Map<String, List<TaskRecord>> bySubject =
        tasks.stream()
            .filter(t -> t.subject() != null)
            .collect(Collectors.groupingBy(TaskRecord::subject));
    TreeSet<Long> cuts = new TreeSet<>();
    cuts.add(start);
    cuts.add(end);
    List<String> subjects = new ArrayList<>(enqueuedAt.keySet());
    int s = subjects.size();
    long[] from = new long[s];
    long[] until = new long[s];
    List<long[]>[] busy = new List[s];
    for (int i = 0; i < s; i++) {
      String subject = subjects.get(i);
      from[i] = enqueuedAt.get(subject);
      List<TaskRecord> own = bySubject.getOrDefault(subject, List.of());
      long last = own.isEmpty() ? end : 0;
      busy[i] = new ArrayList<>();
      for (TaskRecord t : own) {
        long ready = t.readyAt() == TaskRecord.NOT_STARTED ? end : t.readyAt();
        last = Math.max(last, ready);
        busy[i].add(new long[] {t.acceptedAt(), ready});
        cuts.add(t.acceptedAt());
        cuts.add(ready);
      }
      until[i] = Math.min(last, end);
      cuts.add(from[i]);
      cuts.add(until[i]);
    }
    List<long[]> running = new ArrayList<>();
    for (TaskRecord t : tasks) {
      if (t.startedAt() != TaskRecord.NOT_STARTED) {
        running.add(new long[] {t.startedAt(), t.readyAt()});
        cuts.add(t.startedAt());
        cuts.add(t.readyAt());
      }
    }
    for (long[] o : outages) {
      cuts.add(o[0]);
      cuts.add(o[1]);
    }
    double waiting = 0;
    double threadMillis = 0;
    double idleCap = 0;
    double idlePlan = 0;
    double runCap = 0;
    double runPlan = 0;
    double bestCap = 0;
    long bestCapFrom = 0;
    long runCapFrom = 0;
    double bestPlan = 0;
    List<long[]> idle = new ArrayList<>();
    Long prev = null;
    for (long cut : cuts.subSet(start, true, end, true)) {
      if (prev != null) {
        long a = prev;
        long len = cut - a;
        boolean out = false;
        for (long[] o : outages) {
          out |= a >= o[0] && a < o[1];
        }
        int waitingNow = 0;
        for (int i = 0; i < s && waitingNow == 0; i++) {
          if (a >= from[i]
              && a < until[i]
              && busy[i].stream().noneMatch(b -> a >= b[0] && a < b[1])) {
            waitingNow++;
          }
        }
        int inFlight = 0;
        for (long[] r : running) {
          if (a >= r[0] && a < r[1]) {
            inFlight++;
          }
        }
        boolean counts = !out && waitingNow > 0;
        if (counts) {
          waiting += len;
          threadMillis += (double) inFlight * len;
        }
        if (counts && inFlight < cap) {
          idleCap += len;
          idle.add(new long[] {a, cut, cap - inFlight});
          if (runCap == 0) {
            runCapFrom = a;
          }
          runCap += len;
          if (runCap > bestCap) {
            bestCap = runCap;
            bestCapFrom = runCapFrom;
          }
        } else {
          runCap = 0;
        }
        if (counts && inFlight < plan) {
          idlePlan += len;
          runPlan += len;
          bestPlan = Math.max(bestPlan, runPlan);
        } else {
          runPlan = 0;
        }
      }
      prev = cut;
    }
    return new Occupancy(
        waiting / 1000,
        waiting == 0 ? Double.NaN : threadMillis / (cap * waiting),
        waiting == 0 ? Double.NaN : threadMillis / (plan * waiting),
        idleCap / 1000,
        bestCap / 1000,
        bestCapFrom,
        idlePlan / 1000,
        bestPlan / 1000,
        List.copyOf(idle));
  }

  // ---- outages ----

  /**
   * An outage window as the provider saw it.
   *
   * @param gets res.php gets that arrived in it
   * @param getsServed of those, the ones the service itself answered
   * @param firstSubmitAfter the first in.php after the window that created a task, seconds after
   *     its end; NaN when none came
   */
  record Window(long gets, long getsServed, double firstSubmitAfter) {}

  static Window window(List<RequestRecord> requests, long from, long to) {
    long gets = 0;
    long served = 0;
    long first = Long.MAX_VALUE;
    for (RequestRecord r : requests) {
      if (r.resGet() && r.at() >= from && r.at() < to) {
        gets++;
        if (r.reachedService()) {
          served++;
        }
      }
      if (RequestRecord.IN.equals(r.endpoint()) && r.taskId() != 0 && r.at() >= to) {
        first = Math.min(first, r.at());
      }
    }
    return new Window(gets, served, first == Long.MAX_VALUE ? Double.NaN : (first - to) / 1000.0);
  }

  /**
   * The run's physical limit: the provider's own solve times of these tasks scheduled on {@code
   * threads} threads in acceptance order, each answer taken the instant it is ready and the next
   * task submitted at once. No engine can finish the same work sooner.
   */
  static double zeroLagLimitSeconds(List<TaskRecord> tasks, int threads) {
    java.util.PriorityQueue<Long> free = new java.util.PriorityQueue<>();
    for (int i = 0; i < threads; i++) {
      free.add(0L);
    }
    long end = 0;
    List<TaskRecord> inOrder =
        tasks.stream().sorted(java.util.Comparator.comparingLong(TaskRecord::acceptedAt)).toList();
    for (TaskRecord t : inOrder) {
      long at = free.poll() + t.solveMillis();
      end = Math.max(end, at);
      free.add(at);
    }
    return end / 1000.0;
  }

  /**
   * Tasks the engine showed it knew: a res.php get named it (faulted or not), or the app node
   * accepted a push of it.
   */
  static java.util.Set<Long> askedAbout(List<RequestRecord> requests, List<PushRecord> pushes) {
    java.util.Set<Long> out = new java.util.HashSet<>();
    for (RequestRecord r : requests) {
      if (r.resGet() && r.taskId() != 0) {
        out.add(r.taskId());
      }
    }
    for (PushRecord p : pushes) {
      if (p.status() >= 200 && p.status() < 300) {
        out.add(p.taskId());
      }
    }
    return out;
  }

  /** in.php calls that created a task whose reply was lost ({@code LOST_RESPONSE}). */
  static long lostReplies(List<RequestRecord> requests) {
    return requests.stream()
        .filter(r -> RequestRecord.IN.equals(r.endpoint()) && "LOST_RESPONSE".equals(r.fault()))
        .count();
  }

  /** Error codes the provider delivered (a lost reply left out), by "endpoint code". */
  static Map<String, Long> deliveredCodes(
      List<RequestRecord> requests, java.util.function.Predicate<String> which) {
    Map<String, Long> out = new TreeMap<>();
    for (RequestRecord r : requests) {
      if (r.delivered() && r.outcome().startsWith("ERROR") && which.test(r.outcome())) {
        out.merge(r.endpoint() + " " + r.outcome(), 1L, Long::sum);
      }
    }
    return out;
  }
}

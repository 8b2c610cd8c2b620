package com.captchajobs.bench;

import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Where the idle paid-thread seconds go: each idle thread of {@link ProviderLedger#occupancy}'s
 * stretches (work waiting, the provider reachable, fewer than C tasks in flight) is given a cause
 * from the simulator's logs and the harness's own kill and outage times only, never from the
 * engine's tables. A thread-second is counted once, under the first cause in {@link Cause}'s order
 * that still has an unexplained thread at that instant.
 *
 * <p>First the slots the provider's side shows held for nothing running there: a task accepted and
 * not started; an answer ready and not yet delivered (by why its fetch has not come); an in.php
 * that failed without a reply within {@code captchaai.lost-submit-hold} (a phantom may hold its
 * slot). What is left goes to the latest harness event (a kill -9, the database back, the provider
 * back) since which the fleet has not been full, else to {@link Cause#OTHER}.
 */
final class IdleCauses {

  private IdleCauses() {}

  /** CaptchaAI's rule: one res.php get per task every 5 s. */
  private static final long SPACING = ProviderLedger.POLL_SPACING_MILLIS;

  enum Cause {
    NOT_STARTED("task accepted, not started by the provider"),
    FAILED_GET_RULE("answer ready, a get of it failed: the 5 s the rule then forbids another"),
    FETCH_FAILED("answer ready, a get of it failed over 5 s ago (fault or outage)"),
    FIVE_SECOND_RULE("answer ready, its fetch waiting out the 5 s after a get made before"),
    KILLED("answer ready, a worker killed since it was ready"),
    PUSHED_FETCH_QUEUED("answer ready and pushed, the fetch the push rang for not yet made"),
    AWAITING_POLL("answer ready, no push accepted, waiting for a poll"),
    PHANTOM(
        "a phantom's hold: an in.php without a reply, until a task accepted after the next"
            + " threadsinfo"),
    AFTER_KILL("after a kill -9, the fleet not full since"),
    AFTER_DATABASE("after the database outage or PostgreSQL restart, the fleet not full since"),
    AFTER_PROVIDER("after the provider outage, the fleet not full since"),
    OTHER("no task and no answer waiting at the provider (free slot, hand-off, in.php under way)");

    final String label;

    Cause(String label) {
      this.label = label;
    }
  }

  /**
   * @param threadSeconds idle thread-seconds in all: ∫ (C − in flight) dt over the stretches
   * @param byCause thread-seconds per cause, in {@link Cause}'s order, causes with none left out
   */
  record Breakdown(double threadSeconds, Map<Cause, Double> byCause) {

    /** {@code 12.3 thread-s: after a kill -9 ... 4.0 (33 %), ...}. */
    String describe() {
      StringBuilder sb = new StringBuilder(Figures.fmt(threadSeconds, 1) + " thread-s");
      String sep = ": ";
      for (var e : byCause.entrySet()) {
        sb.append(sep)
            .append(e.getKey().label)
            .append(' ')
            .append(Figures.fmt(e.getValue(), 1))
            .append(" (")
            .append(Figures.pct(e.getValue() / threadSeconds))
            .append(')');
        sep = "; ";
      }
      return sb.toString();
    }

    /** The cause with the most thread-seconds; null when none. */
    Cause main() {
      return byCause.entrySet().stream()
          .max(Map.Entry.comparingByValue())
          .map(Map.Entry::getKey)
          .orElse(null);
    }
  }

  /** The harness's own times: kills, and when the database and the provider came back. */
  record Events(List<Long> kills, List<Long> databaseBack, List<Long> providerBack) {}

  /**
   * @param idle {@code {from, to, idle threads}} stretches in time order ({@link
   *     ProviderLedger.Occupancy#idle}); consecutive ones that touch form one stretch of a fleet
   *     that was never full in between
   * @param lostSubmitHoldMillis how long a slot may stay with a phantom after an in.php without a
   *     reply ({@code captchaai.lost-submit-hold})
   * @param end the run's end: an answer never delivered holds its slot until its key's next task
   *     was accepted, or until then
   */
  static Breakdown of(
      List<long[]> idle,
      List<TaskRecord> tasks,
      List<RequestRecord> requests,
      List<PushRecord> pushes,
      Events events,
      long lostSubmitHoldMillis,
      long end) {
    Map<Long, List<RequestRecord>> gets = new HashMap<>();
    List<RequestRecord> failedSubmits = new ArrayList<>();
    TreeSet<Long> readings = new TreeSet<>();
    TreeSet<Long> accepted = new TreeSet<>();
    for (RequestRecord r : requests) {
      if (r.resGet() && r.taskId() != 0) {
        gets.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r);
      } else if (RequestRecord.IN.equals(r.endpoint()) && !r.delivered()) {
        failedSubmits.add(r);
      } else if (RequestRecord.RES.equals(r.endpoint()) && "threadsinfo".equals(r.action())) {
        readings.add(r.at());
      }
      if (RequestRecord.IN.equals(r.endpoint()) && r.taskId() != 0) {
        accepted.add(r.at());
      }
    }
    // a phantom's hold as the provider sees it: from the failed in.php (or, for a lost reply,
    // from its task's answer) until the first task accepted after the first threadsinfo reading
    // after that (the repair pass frees phantoms on a reading), at most lost-submit-hold
    Map<RequestRecord, Long> phantomEnd = new HashMap<>();
    for (RequestRecord f : failedSubmits) {
      long from = f.at();
      for (TaskRecord t : tasks) {
        if (f.taskId() != 0 && t.id() == f.taskId() && t.readyAt() != TaskRecord.NOT_STARTED) {
          from = Math.max(from, t.readyAt());
        }
      }
      phantomEnd.put(f, phantomEnd(from, f.at() + lostSubmitHoldMillis, readings, accepted));
    }
    gets.values().forEach(l -> l.sort(Comparator.comparingLong(RequestRecord::at)));
    Map<Long, Long> pushedAt = new HashMap<>();
    for (PushRecord p : pushes) {
      if (p.status() >= 200 && p.status() < 300) {
        pushedAt.merge(p.taskId(), p.at(), Math::min);
      }
    }
    Map<String, List<Long>> acceptedBySubject = new HashMap<>();
    for (TaskRecord t : tasks) {
      if (t.subject() != null) {
        acceptedBySubject.computeIfAbsent(t.subject(), k -> new ArrayList<>()).add(t.acceptedAt());
      }
    }
    List<Held> held = new ArrayList<>();
    TreeSet<Long> cuts = new TreeSet<>();
    for (TaskRecord t : tasks) {
      List<RequestRecord> own = gets.getOrDefault(t.id(), List.of());
      boolean started = t.startedAt() != TaskRecord.NOT_STARTED;
      long until;
      if (started) {
        long delivered = ProviderLedger.firstDelivery(t, own, List.of());
        until = delivered > 0 ? delivered : replacedAt(t, acceptedBySubject, end);
      } else {
        until = replacedAt(t, acceptedBySubject, end);
      }
      long lostReplyEnd =
          failedSubmits.stream()
              .filter(f -> f.taskId() == t.id())
              .mapToLong(phantomEnd::get)
              .findFirst()
              .orElse(0);
      boolean lostReply = lostReplyEnd != 0;
      Held h =
          new Held(
              t, started, until, own, pushedAt.getOrDefault(t.id(), Long.MAX_VALUE), lostReplyEnd);
      held.add(h);
      cuts.add(t.acceptedAt());
      cuts.add(until);
      if (started) {
        cuts.add(t.startedAt());
        cuts.add(t.readyAt());
      }
      for (RequestRecord g : own) {
        cuts.add(g.at());
        cuts.add(g.at() + SPACING);
      }
      if (lostReply) {
        cuts.add(h.phantomUntil);
      }
      if (h.pushedAt != Long.MAX_VALUE) {
        cuts.add(h.pushedAt);
      }
    }
    for (RequestRecord f : failedSubmits) {
      cuts.add(f.at());
      cuts.add(phantomEnd.get(f));
    }
    events.kills().forEach(cuts::add);
    events.databaseBack().forEach(cuts::add);
    events.providerBack().forEach(cuts::add);

    Map<Cause, Double> millis = new EnumMap<>(Cause.class);
    double total = 0;
    long runStart = Long.MIN_VALUE;
    long prevTo = Long.MIN_VALUE;
    for (long[] seg : idle) {
      if (seg[0] != prevTo) {
        runStart = seg[0];
      }
      prevTo = seg[1];
      List<Long> inner = new ArrayList<>(cuts.subSet(seg[0], false, seg[1], false));
      inner.add(0, seg[0]);
      inner.add(seg[1]);
      for (int i = 1; i < inner.size(); i++) {
        long a = inner.get(i - 1);
        long len = inner.get(i) - a;
        if (len <= 0) {
          continue;
        }
        total += seg[2] * (double) len;
        int left = (int) seg[2];
        int[] counts = new int[Cause.values().length];
        for (Held h : held) {
          Cause c = h.causeAt(a, events.kills());
          if (c != null) {
            counts[c.ordinal()]++;
          }
        }
        for (RequestRecord f : failedSubmits) {
          // a lost reply's task is counted by its Held: running, then a phantom once ready
          if (f.taskId() == 0 && f.at() <= a && a < phantomEnd.get(f)) {
            counts[Cause.PHANTOM.ordinal()]++;
          }
        }
        for (Cause c : Cause.values()) {
          int n = Math.min(left, counts[c.ordinal()]);
          if (n > 0) {
            millis.merge(c, n * (double) len, Double::sum);
            left -= n;
          }
        }
        if (left > 0) {
          Cause after = afterEvent(a, runStart, events);
          millis.merge(after, left * (double) len, Double::sum);
        }
      }
    }
    Map<Cause, Double> seconds = new EnumMap<>(Cause.class);
    millis.forEach((c, v) -> seconds.put(c, v / 1000));
    return new Breakdown(total / 1000, seconds);
  }

  /**
   * The end of a phantom's hold that began at {@code from}: the first task accepted after the first
   * threadsinfo reading after it, at most {@code cap}.
   */
  static long phantomEnd(long from, long cap, TreeSet<Long> readings, TreeSet<Long> accepted) {
    Long reading = readings.higher(from);
    if (reading == null) {
      return Math.max(from, cap);
    }
    Long next = accepted.higher(reading);
    return next == null ? Math.max(from, cap) : Math.max(from, Math.min(cap, next));
  }

  /** The latest harness event in the stretch so far (the fleet not full since), else OTHER. */
  private static Cause afterEvent(long a, long runStart, Events events) {
    long best = Long.MIN_VALUE;
    Cause cause = Cause.OTHER;
    for (long k : events.kills()) {
      if (k >= runStart && k <= a && k > best) {
        best = k;
        cause = Cause.AFTER_KILL;
      }
    }
    for (long d : events.databaseBack()) {
      if (d >= runStart && d <= a && d > best) {
        best = d;
        cause = Cause.AFTER_DATABASE;
      }
    }
    for (long p : events.providerBack()) {
      if (p >= runStart && p <= a && p > best) {
        best = p;
        cause = Cause.AFTER_PROVIDER;
      }
    }
    return cause;
  }

  /** When the task's business key got its next task; {@code end} when it got none. */
  private static long replacedAt(TaskRecord t, Map<String, List<Long>> bySubject, long end) {
    long next = end;
    for (long at : bySubject.getOrDefault(t.subject(), List.of())) {
      if (at > t.acceptedAt()) {
        next = Math.min(next, at);
      }
    }
    return next;
  }

  /** A task's hold on a slot that the provider's side can see, and why it is not over. */
  private record Held(
      TaskRecord task,
      boolean started,
      long until,
      List<RequestRecord> gets,
      long pushedAt,
      long phantomUntil) {

    /** Why this task holds a slot without a provider thread at {@code a}; null when it does not. */
    Cause causeAt(long a, List<Long> kills) {
      if (a < task.acceptedAt() || a >= until) {
        return null;
      }
      if (!started) {
        return Cause.NOT_STARTED;
      }
      if (a < task.startedAt()) {
        return Cause.NOT_STARTED;
      }
      if (a < task.readyAt()) {
        return null;
      }
      if (phantomUntil > 0) {
        // its in.php reply was lost: the engine never knew it, a phantom holds its slot
        return a < phantomUntil ? Cause.PHANTOM : null;
      }
      RequestRecord last = null;
      for (RequestRecord g : gets) {
        if (g.at() <= a) {
          last = g;
        }
      }
      if (last != null && last.at() >= task.readyAt()) {
        // a get after the answer was ready that did not deliver it (the one that did ends the
        // hold): the 5 s after it no engine may call again, what follows is the engine's
        return a < last.at() + SPACING ? Cause.FAILED_GET_RULE : Cause.FETCH_FAILED;
      }
      if (last != null && a < last.at() + SPACING) {
        return Cause.FIVE_SECOND_RULE;
      }
      long ready = task.readyAt();
      if (kills.stream().anyMatch(k -> k >= ready && k <= a)) {
        return Cause.KILLED;
      }
      if (pushedAt <= a) {
        return Cause.PUSHED_FETCH_QUEUED;
      }
      return Cause.AWAITING_POLL;
    }
  }
}

package com.captchajobs.bench;

import com.captchajobs.core.internal.stats.Percentiles;
import com.captchajobs.simulator.DurationConverter;
import com.captchajobs.simulator.TaskRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The figures listed in bench/README.md, each beside its target, computed from a finished run.
 * Values are numbers (NaN when not measurable) so that tests and the report read the same thing.
 */
public final class Figures {

  /** One line of the table: {@code ok} is null when the figure has no pass/fail target. */
  public record Row(String name, String value, String target, Boolean ok) {}

  private final RunData run;
  private final int cap;
  private final Map<String, Double> values = new LinkedHashMap<>();
  private final List<Row> rows = new ArrayList<>();

  private Figures(RunData run) {
    this.run = run;
    this.cap = run.options().threads();
  }

  public static Figures of(RunData run) {
    Figures f = new Figures(run);
    f.compute();
    return f;
  }

  public List<Row> rows() {
    return rows;
  }

  /** A figure by key (see the keys used in {@link #compute}); NaN when absent. */
  public double value(String key) {
    return values.getOrDefault(key, Double.NaN);
  }

  public RunData run() {
    return run;
  }

  private void compute() {
    int n = run.options().solves();
    List<Rows.Solve> solves = run.solves();
    long solved =
        solves.stream()
            .filter(s -> Set.of("SOLVED", "CLAIMED", "EXPIRED").contains(s.status()))
            .count();
    long failed = solves.stream().filter(s -> "FAILED".equals(s.status())).count();
    long lost = n - solved - failed;
    put("solves", n);
    put("solved", solved);
    put("failed", failed);
    put("lost", lost);
    row(
        "solves: solved / failed / not ended",
        solved + " / " + failed + " / " + lost,
        "not ended = 0",
        lost == 0);
    failuresByCode(solves);
    stuck();

    double meanSolve = meanSolveSeconds();
    put("mean_solve_s", meanSolve);

    // utilisation under backlog
    Backlog backlog = backlog();
    put("backlog_s", backlog.seconds);
    put("gate_util", backlog.gateUtil);
    put("provider_util", backlog.providerUtil);
    double providerTarget = meanSolve / (meanSolve + 3.0);
    put("provider_target", providerTarget);
    row(
        "gate-slot utilisation",
        pct(backlog.gateUtil) + " over " + fmt(backlog.seconds, 1) + " s of backlog",
        "≥ 99 %",
        ok(backlog.gateUtil, v -> v >= 0.99));
    row(
        "provider-thread utilisation",
        pct(backlog.providerUtil),
        "≥ " + pct(providerTarget) + " (mean solve " + fmt(meanSolve, 2) + " s)",
        ok(backlog.providerUtil, v -> v >= providerTarget));

    // overshoot
    int overshoot = run.stats().maxInFlight() - cap;
    put("overshoot", overshoot);
    put("max_in_flight", run.stats().maxInFlight());
    row(
        "overshoot",
        overshoot
            + " (simulator max in flight "
            + run.stats().maxInFlight()
            + ", cap "
            + cap
            + ", plan "
            + run.options().planThreads()
            + ")",
        "0",
        overshoot <= 0);
    long orphans = run.tasks().stream().filter(t -> t.polls() == 0 && !t.fetched()).count();
    put("orphan_tasks", orphans);
    if (orphans > 0) {
      int known =
          maxConcurrent(run.tasks().stream().filter(t -> t.polls() > 0 || t.fetched()).toList());
      put("overshoot_known", known - cap);
      row(
          "overshoot without never-polled tasks",
          String.valueOf(known - cap),
          "0 ("
              + orphans
              + " task(s) never polled: reply lost or node killed before storing the id)",
          known - cap <= 0);
    }

    // hand-off and poll lateness
    List<Double> handoff = run.handoffSeconds();
    put("handoff_p50", Percentiles.of(handoff, 0.5));
    put("handoff_p95", Percentiles.of(handoff, 0.95));
    long slowHandoffs = handoff.stream().filter(d -> d > 1.0).count();
    put("handoff_over_1s", slowHandoffs);
    List<Double> enqueueToSubmit = run.enqueueToSubmitSeconds();
    put("enqueue_p50", Percentiles.of(enqueueToSubmit, 0.5));
    put("enqueue_p95", Percentiles.of(enqueueToSubmit, 0.95));
    row(
        "enqueue -> in.php p95",
        secs(enqueueToSubmit, 0.95)
            + " (p50 "
            + secs(enqueueToSubmit, 0.5)
            + ", n="
            + enqueueToSubmit.size()
            + " probe solves enqueued with every slot free, max "
            + secs(enqueueToSubmit, 1.0)
            + ")",
        "p95 ≤ 0.25 s",
        ok(Percentiles.of(enqueueToSubmit, 0.95), v -> v <= 0.25));
    row(
        "freed slot -> in.php p95",
        secs(handoff, 0.95)
            + " (p50 "
            + secs(handoff, 0.5)
            + ", n="
            + handoff.size()
            + ", "
            + slowHandoffs
            + " over 1 s, max "
            + secs(handoff, 1.0)
            + ")",
        "p95 ≤ 1 s",
        ok(Percentiles.of(handoff, 0.95), v -> v <= 1.0));
    List<Double> lateness =
        run.polls().stream().map(p -> (p.calledAt() - p.intendedAt()) / 1000.0).toList();
    put("lateness_p50", Percentiles.of(lateness, 0.5));
    put("lateness_p95", Percentiles.of(lateness, 0.95));
    row(
        "poll lateness p50 / p95",
        secs(lateness, 0.5) + " / " + secs(lateness, 0.95) + " (n=" + lateness.size() + ")",
        "p95 ≤ 0.5 s",
        ok(Percentiles.of(lateness, 0.95), v -> v <= 0.5));

    fetchLag();
    chaosEvents();

    // calls and jobs per solve
    double inPerSolve = (double) run.stats().acceptedSubmits() / n;
    double resPerSolve = (double) run.stats().resCalls() / n;
    put("in_per_solve", inPerSolve);
    put("res_per_solve", resPerSolve);
    row(
        "in.php calls per solve (accepted)",
        fmt(inPerSolve, 3) + " (rejected: " + run.stats().rejectedSubmitsByCode() + ")",
        "1",
        null);
    ResBound resBound = resBound();
    double withinBound = resBound.share();
    put("res_within_bound", withinBound);
    row(
        "res.php calls per solve",
        fmt(resPerSolve, 2)
            + "; "
            + resBound.within()
            + " of "
            + resBound.checked()
            + " solved within the bound"
            + (resBound.over().isEmpty()
                ? ""
                : " (over: " + String.join("; ", resBound.over()) + ")"),
        "≤ 1 + ceil((solved at − first poll) / 5 s)",
        ok(withinBound, v -> v >= 1.0));
    double jobsPerSolve = (double) run.jobrunrJobs() / n;
    put("jobs_per_solve", jobsPerSolve);
    row(
        "JobRunr jobs per solve",
        fmt(jobsPerSolve, 2),
        "≤ 3 when the first poll finds the answer",
        null);
    double statementsPerSolve =
        run.sqlStatements() < 0 ? Double.NaN : (double) run.sqlStatements() / n;
    put("statements_per_solve", statementsPerSolve);
    row(
        "SQL statements per solve",
        run.sqlStatements() < 0
            ? "n/a (pg_stat_statements not loadable)"
            : fmt(statementsPerSolve, 1)
                + " ("
                + run.sqlStatements()
                + " statements of every node, app included, during the run; pg_stat_statements)",
        "(no target)",
        null);

    // throughput
    throughput(solves, solved, meanSolve);

    // duplicates
    duplicates();
    permanent();
    nodes();
  }

  private void failuresByCode(List<Rows.Solve> solves) {
    Map<String, Long> byCode =
        solves.stream()
            .filter(s -> "FAILED".equals(s.status()))
            .collect(
                Collectors.groupingBy(
                    s -> s.errorCode() + "/" + s.errorClass(),
                    TreeMap::new,
                    Collectors.counting()));
    if (!byCode.isEmpty()) {
      row("failed solves by code", byCode.toString(), "only the permanent requests", null);
    }
  }

  private record Backlog(double seconds, double gateUtil, double providerUtil) {}

  /** Slots held / C and the simulator's in-flight / C, over the sample intervals with a backlog. */
  private Backlog backlog() {
    List<Sampler.Sample> s = run.samples();
    double backlogMillis = 0;
    double held = 0;
    double provider = 0;
    List<long[]> series = run.stats().inFlightSeries();
    for (int i = 0; i + 1 < s.size(); i++) {
      if (s.get(i).backlog() == 0) {
        continue;
      }
      long a = s.get(i).atMillis();
      long b = s.get(i + 1).atMillis();
      backlogMillis += b - a;
      held += Math.min(s.get(i).slotsHeld(), cap) * (double) (b - a);
      provider += integral(series, a, b);
    }
    if (backlogMillis == 0) {
      return new Backlog(0, Double.NaN, Double.NaN);
    }
    return new Backlog(
        backlogMillis / 1000, held / (cap * backlogMillis), provider / (cap * backlogMillis));
  }

  /** ∫ in-flight dt over [a, b) of a step series, in thread-milliseconds. */
  static double integral(List<long[]> series, long a, long b) {
    double sum = 0;
    for (int i = 0; i < series.size(); i++) {
      long from = Math.max(series.get(i)[0], a);
      long to = Math.min(i + 1 < series.size() ? series.get(i + 1)[0] : b, b);
      if (to > from) {
        sum += series.get(i)[1] * (double) (to - from);
      }
    }
    return sum;
  }

  private double meanSolveSeconds() {
    List<TaskRecord> started = run.tasks().stream().filter(t -> t.readyAt() > 0).toList();
    if (started.isEmpty()) {
      return run.options().mix().expectedMeanSolveSeconds(run.options().timeScale());
    }
    return started.stream().mapToLong(TaskRecord::solveMillis).average().orElse(0) / 1000.0;
  }

  /**
   * Ready at the provider (simulator) → token stored (solve row), per type; and the simulator's own
   * figure.
   */
  private void fetchLag() {
    Map<Long, TaskRecord> byId = new HashMap<>();
    run.tasks().forEach(t -> byId.put(t.id(), t));
    Map<String, List<Double>> lags = new TreeMap<>();
    for (Rows.Solve s : run.solves()) {
      if (s.taskId() == null || s.solvedAt() == 0) {
        continue;
      }
      TaskRecord t;
      try {
        t = byId.get(Long.parseLong(s.taskId()));
      } catch (NumberFormatException e) {
        continue;
      }
      if (t != null && t.readyAt() > 0) {
        lags.computeIfAbsent(s.type(), k -> new ArrayList<>())
            .add((s.solvedAt() - t.readyAt()) / 1000.0);
      }
    }
    if (lags.isEmpty()) {
      row(
          "fetch lag (ready → stored) per type",
          "n/a (simulator tasks not readable)",
          "≤ 3 s / ≤ 5.5 s",
          null);
    }
    lags.forEach(
        (type, l) -> {
          double mean = l.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
          double p95 = Percentiles.of(l, 0.95);
          put("fetch_lag_mean_" + type, mean);
          put("fetch_lag_p95_" + type, p95);
          row(
              "fetch lag " + type + " mean / p95",
              fmt(mean, 2) + " s / " + fmt(p95, 2) + " s (n=" + l.size() + ")",
              "≤ 3 s / ≤ 5.5 s",
              mean <= 3.0 && p95 <= 5.5);
        });
    put("sim_fetch_lag_mean", run.stats().fetchLagMeanSeconds());
    put("sim_fetch_lag_p95", run.stats().fetchLagP95Seconds());
    row(
        "fetch lag, all types (simulator: ready → first get) mean / p95",
        fmt(run.stats().fetchLagMeanSeconds(), 2)
            + " s / "
            + fmt(run.stats().fetchLagP95Seconds(), 2)
            + " s",
        "≤ 3 s / ≤ 5.5 s",
        run.stats().fetchLagMeanSeconds() <= 3.0 && run.stats().fetchLagP95Seconds() <= 5.5);
  }

  /**
   * Solved solves whose res.php calls (poll rows) stay within 1 + ceil((solved at − first poll) / 5
   * s), and a description of the first few that do not.
   */
  private record ResBound(int checked, int within, List<String> over) {
    double share() {
      return checked == 0 ? Double.NaN : (double) within / checked;
    }
  }

  private ResBound resBound() {
    Map<String, List<Rows.Poll>> bySolve =
        run.polls().stream().collect(Collectors.groupingBy(Rows.Poll::solveId));
    int checked = 0;
    int within = 0;
    List<String> over = new ArrayList<>();
    for (Rows.Solve s : run.solves()) {
      List<Rows.Poll> p = bySolve.get(s.id());
      if (s.solvedAt() == 0 || p == null) {
        continue;
      }
      long first = p.stream().mapToLong(Rows.Poll::calledAt).min().orElse(s.solvedAt());
      long bound = 1 + (long) Math.ceil(Math.max(0, s.solvedAt() - first) / 5000.0);
      checked++;
      if (p.size() <= bound) {
        within++;
      } else if (over.size() < 5) {
        long[] calls = p.stream().mapToLong(Rows.Poll::calledAt).sorted().toArray();
        long shortest = Long.MAX_VALUE;
        for (int i = 1; i < calls.length; i++) {
          shortest = Math.min(shortest, calls[i] - calls[i - 1]);
        }
        over.add(
            s.businessKey()
                + ": "
                + p.size()
                + " polls over "
                + fmt((s.solvedAt() - first) / 1000.0, 1)
                + " s, "
                + s.submits()
                + " submit(s), shortest gap "
                + fmt(shortest / 1000.0, 3)
                + " s");
      }
    }
    return new ResBound(checked, within, over);
  }

  private void throughput(List<Rows.Solve> solves, long solved, double meanSolve) {
    List<Long> done =
        solves.stream().filter(s -> s.solvedAt() > 0).map(Rows.Solve::solvedAt).sorted().toList();
    if (done.isEmpty()) {
      return;
    }
    double overall = solved / ((done.get(done.size() - 1) - run.startMillis()) / 1000.0);
    int lo = (int) (done.size() * 0.1);
    int hi = Math.max(lo + 1, (int) (done.size() * 0.9) - 1);
    double sustained =
        hi < done.size() && done.get(hi) > done.get(lo)
            ? (hi - lo) / ((done.get(hi) - done.get(lo)) / 1000.0)
            : overall;
    double limit = cap / meanSolve;
    put("throughput", overall);
    put("throughput_sustained", sustained);
    put("limit", limit);
    row(
        "throughput (all / middle 80 %)",
        fmt(overall, 2) + " / " + fmt(sustained, 2) + " solves/s",
        "limit C / mean solve = " + fmt(limit, 2) + " solves/s",
        null);
    row("throughput / limit", pct(sustained / limit), "(the provider's limit)", null);
  }

  private void duplicates() {
    Map<String, Long> byPage = run.stats().submitsByPageUrl();
    long extra = byPage.values().stream().mapToLong(v -> Math.max(0, v - 1)).sum();
    long keys = byPage.values().stream().filter(v -> v > 1).count();
    long dup = run.stats().duplicateSubmits();
    put("duplicate_submits", dup);
    put("lost_responses", run.lostResponses());
    Set<String> finalTaskIds =
        run.solves().stream()
            .map(Rows.Solve::taskId)
            .filter(java.util.Objects::nonNull)
            .collect(Collectors.toSet());
    Duplicates d =
        Duplicates.of(run.tasks(), finalTaskIds, run.learntTaskIds(), run.givenUpTaskIds(), dup);
    put("duplicates_explained", d.explained());
    put("duplicates_unexplained", d.unexplained());
    put("duplicates_given_up", d.givenUp());
    String detail =
        dup + " (" + keys + " business key(s) with >1 in.php, " + extra + " extra by page URL)";
    if (run.options().mode() == BenchOptions.Mode.CHAOS) {
      detail +=
          "; explained by a lost reply (the task before never polled nor fetched, its id never"
              + (run.learntTaskIds() == null ? " [engine logs unread]" : "")
              + " stored by the engine): "
              + d.explained()
              + " (lost in.php replies "
              + run.lostResponses()
              + ", the rest a kill between in.php and storing the task id)"
              + "; fresh submissions after the engine gave a task up by design (no answer within the"
              + " solve timeout, an answer too late to be sure of, a task the provider forgot): "
              + d.givenUp()
              + (d.givenUpTasks().isEmpty() ? "" : " " + d.givenUpTasks())
              + ", not explained: "
              + d.unexplained()
              + (d.unexplainedTasks().isEmpty() ? "" : " " + d.unexplainedTasks());
      row(
          "duplicate in.php per business key",
          detail,
          "0 not explained by a lost reply",
          d.unexplained() == 0);
    } else {
      row("duplicate in.php per business key", detail, "0", dup == 0);
    }
  }

  /**
   * Duplicate in.php calls sorted out: a business key's second accepted in.php is explained by a
   * lost reply when the engine never learnt the id of the task before it (the reply was lost, or
   * the node died between the answer and storing it): that task was never polled nor fetched at the
   * simulator, and no worker logged storing or resuming it ({@code learnt}, null when the logs are
   * unread). The simulator alone cannot tell: during a provider outage the engine's polls of a task
   * it knows never reach the task. Tasks with a page URL are grouped by it (one per business key);
   * image tasks have none, so an image task that is no solve's final task counts as the earlier one
   * of a pair. Duplicates the simulator counted beyond those found are counted unexplained.
   */
  record Duplicates(
      long extras,
      long explained,
      long givenUp,
      long unexplained,
      List<String> givenUpTasks,
      List<String> unexplainedTasks) {

    static Duplicates of(
        List<TaskRecord> tasks,
        Set<String> finalTaskIds,
        Set<String> learnt,
        long simulatorDuplicates) {
      return of(tasks, finalTaskIds, learnt, Map.of(), simulatorDuplicates);
    }

    /**
     * Like {@link #of(List, Set, Set, long)}, with the tasks the engine gave up by design ({@code
     * givenUp}: task id to the reason it logged); a second submission after one of them is counted
     * apart, neither explained by a lost reply nor unexplained.
     */
    static Duplicates of(
        List<TaskRecord> tasks,
        Set<String> finalTaskIds,
        Set<String> learnt,
        Map<String, String> givenUp,
        long simulatorDuplicates) {
      long extras = 0;
      long explained = 0;
      List<String> byDesign = new ArrayList<>();
      List<String> unexplained = new ArrayList<>();
      Map<String, List<TaskRecord>> byPage =
          tasks.stream()
              .filter(t -> t.pageUrl() != null)
              .collect(
                  Collectors.groupingBy(TaskRecord::pageUrl, TreeMap::new, Collectors.toList()));
      for (var e : byPage.entrySet()) {
        List<TaskRecord> list = new ArrayList<>(e.getValue());
        list.sort(
            java.util.Comparator.comparingLong(TaskRecord::acceptedAt)
                .thenComparingLong(TaskRecord::id));
        for (int i = 1; i < list.size(); i++) {
          extras++;
          TaskRecord before = list.get(i - 1);
          if (neverLearnt(before, learnt)) {
            explained++;
          } else if (givenUp.containsKey(String.valueOf(before.id()))) {
            byDesign.add(
                "task "
                    + before.id()
                    + " given up ("
                    + givenUp.get(String.valueOf(before.id()))
                    + ")");
          } else {
            unexplained.add(
                describe(before, learnt) + " then task " + list.get(i).id() + " for " + e.getKey());
          }
        }
      }
      for (TaskRecord t : tasks) {
        if (t.pageUrl() == null && !finalTaskIds.contains(String.valueOf(t.id()))) {
          extras++;
          if (neverLearnt(t, learnt)) {
            explained++;
          } else if (givenUp.containsKey(String.valueOf(t.id()))) {
            byDesign.add(
                "task " + t.id() + " given up (" + givenUp.get(String.valueOf(t.id())) + ")");
          } else {
            unexplained.add(describe(t, learnt) + " (image) is no solve's final task");
          }
        }
      }
      long total = Math.max(extras, simulatorDuplicates);
      return new Duplicates(
          total,
          explained,
          byDesign.size(),
          total - explained - byDesign.size(),
          List.copyOf(byDesign),
          List.copyOf(unexplained));
    }

    private static boolean neverLearnt(TaskRecord t, Set<String> learnt) {
      return t.polls() == 0
          && !t.fetched()
          && (learnt == null || !learnt.contains(String.valueOf(t.id())));
    }

    private static String describe(TaskRecord t, Set<String> learnt) {
      return "task "
          + t.id()
          + " ("
          + t.polls()
          + " poll(s), "
          + (t.fetched() ? "fetched" : "not fetched")
          + (learnt != null && learnt.contains(String.valueOf(t.id()))
              ? ", stored by the engine"
              : "")
          + ")";
    }
  }

  private void permanent() {
    if (run.options().mode() != BenchOptions.Mode.CHAOS) {
      return;
    }
    long requested =
        run.solves().stream().filter(s -> s.businessKey().endsWith("-permanent")).count();
    long seen = run.stats().rejected("ERROR_BAD_TOKEN_OR_PAGEURL");
    long delivered = run.permanentAnswers().getOrDefault("in.php ERROR_BAD_TOKEN_OR_PAGEURL", 0L);
    long otherCodes =
        run.permanentAnswers().entrySet().stream()
            .filter(e -> !e.getKey().equals("in.php ERROR_BAD_TOKEN_OR_PAGEURL"))
            .mapToLong(Map.Entry::getValue)
            .sum();
    int maxFailed =
        run.permanentJobs().stream().mapToInt(Rows.JobHistory::failedStates).max().orElse(0);
    long retriedJobs = run.permanentJobs().stream().filter(j -> j.failedStates() > 1).count();
    // each permanent request may be told its code once; a second telling means it was sent again
    long retried = retriedJobs + Math.max(0, delivered - requested);
    put("permanent_retried", retried);
    put("permanent_other_codes", otherCodes);
    row(
        "permanent codes retried",
        retried
            + " ("
            + requested
            + " permanent request(s); the code delivered "
            + delivered
            + "×, answered "
            + seen
            + "× (a lost reply is answered but not delivered); of "
            + run.permanentJobs().size()
            + " job(s) of those solves, "
            + retriedJobs
            + " with more than one FAILED state"
            + ", most in one job "
            + maxFailed
            + "; permanent codes delivered: "
            + run.permanentAnswers()
            + ")",
        "0",
        retried == 0);
  }

  private void stuck() {
    List<Rows.Unfinished> stuck = run.stuck();
    put("stuck", stuck.size());
    row(
        "solves stuck (unfinished, no live job, after the run settled)",
        stuck.size()
            + (stuck.isEmpty()
                ? ""
                : " " + stuck.stream().limit(10).map(u -> u.id() + " " + u.status()).toList()),
        "0",
        stuck.isEmpty());
  }

  /** The chaos as it happened: kills, the restart, the two outages and the polls due in them. */
  private void chaosEvents() {
    if (run.options().mode() != BenchOptions.Mode.CHAOS) {
      return;
    }
    Chaos.Events e = run.chaos();
    List<Chaos.Kill> kills = e.kills();
    double meanGap =
        kills.size() < 2
            ? Double.NaN
            : (kills.get(kills.size() - 1).atMillis() - kills.get(0).atMillis())
                / 1000.0
                / (kills.size() - 1);
    put("kills", kills.size());
    row(
        "kill -9",
        kills.size() + " (mean " + fmt(meanGap, 1) + " s apart), each followed by a replacement",
        "every " + DurationConverter.format(run.options().killEvery()),
        null);
    row(
        "PostgreSQL restarts",
        e.postgresRestarts().size()
            + e.postgresRestarts().stream()
                .map(
                    r ->
                        " (t="
                            + fmt((r[0] - run.startMillis()) / 1000.0, 0)
                            + " s, down "
                            + (r[1] - r[0])
                            + " ms)")
                .collect(Collectors.joining()),
        "1",
        e.postgresRestarts().size() == 1);
    outageRow(e.outage(Chaos.Outage.DATABASE), "database outage", run.options().dbOutage());
    outageRow(e.outage(Chaos.Outage.PROVIDER), "provider outage", run.options().providerOutage());
  }

  private void outageRow(Chaos.Outage o, String name, java.time.Duration planned) {
    if (planned.isZero()) {
      return;
    }
    if (o == null) {
      row(name, "did not happen", DurationConverter.format(planned), false);
      return;
    }
    List<Rows.Poll> due =
        run.polls().stream()
            .filter(p -> p.intendedAt() >= o.fromMillis() && p.intendedAt() < o.toMillis())
            .toList();
    double maxLate =
        due.stream()
            .mapToDouble(p -> (p.calledAt() - p.intendedAt()) / 1000.0)
            .max()
            .orElse(Double.NaN);
    put(name.replace(' ', '_') + "_s", o.seconds());
    put(name.replace(' ', '_') + "_polls_due", due.size());
    row(
        name,
        fmt(o.seconds(), 0)
            + " s from t="
            + fmt((o.fromMillis() - run.startMillis()) / 1000.0, 0)
            + " s; at its start "
            + o.detail()
            + "; "
            + due.size()
            + " res.php call(s) recorded as due in it, made up to "
            + fmt(maxLate, 1)
            + " s late",
        DurationConverter.format(planned),
        Math.abs(o.seconds() - planned.toMillis() / 1000.0) < 5);
  }

  private void nodes() {
    double totalCpu = 0;
    for (RunData.Node node : run.nodes()) {
      totalCpu += node.cpuSeconds();
      row(
          "worker " + node.name() + (node.killed() ? " (killed)" : ""),
          fmt(node.cpuSeconds(), 1)
              + " CPU s ("
              + pct(node.cpuSeconds() / Math.max(0.001, node.aliveSeconds()))
              + " of a core over "
              + fmt(node.aliveSeconds(), 0)
              + " s), peak RSS "
              + fmt(node.peakRssMiB(), 0)
              + " MiB",
          "(no target)",
          null);
    }
    double solved = value("solved");
    put("worker_cpu_s", totalCpu);
    put("worker_cpu_ms_per_solve", solved > 0 ? 1000 * totalCpu / solved : Double.NaN);
    row(
        "worker CPU per solve",
        fmt(value("worker_cpu_ms_per_solve"), 1) + " ms",
        "(no target)",
        null);
    double pgMsPerSolve = solved > 0 ? 1000 * run.postgresCpuSeconds() / solved : Double.NaN;
    put("pg_cpu_ms_per_solve", pgMsPerSolve);
    row(
        "PostgreSQL CPU per solve",
        fmt(pgMsPerSolve, 2)
            + " ms ("
            + (Double.isNaN(pgMsPerSolve) || pgMsPerSolve <= 0
                ? "n/a"
                : fmt(1000 / pgMsPerSolve, 0) + " solves/s per PostgreSQL core")
            + "; shared 2-core machine)",
        "(no target)",
        null);
    row(
        "PostgreSQL / bench JVM CPU",
        fmt(run.postgresCpuSeconds(), 1) + " s / " + fmt(run.benchCpuSeconds(), 1) + " s",
        "(no target)",
        null);
    put("machine_busy", run.machineBusyShare());
    row(
        "machine CPU busy during the run",
        pct(run.machineBusyShare())
            + " of "
            + Runtime.getRuntime().availableProcessors()
            + " cores",
        "(no target)",
        null);
  }

  /** Highest number of tasks holding a thread at once (start → ready). */
  static int maxConcurrent(List<TaskRecord> tasks) {
    List<long[]> events = new ArrayList<>();
    for (TaskRecord t : tasks) {
      if (t.startedAt() > 0) {
        events.add(new long[] {t.startedAt(), 1});
        events.add(new long[] {t.readyAt(), -1});
      }
    }
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int now = 0;
    int max = 0;
    for (long[] e : events) {
      now += (int) e[1];
      max = Math.max(max, now);
    }
    return max;
  }

  private void put(String key, double v) {
    values.put(key, v);
  }

  private void row(String name, String value, String target, Boolean ok) {
    rows.add(new Row(name, value, target, ok));
  }

  private static Boolean ok(double v, java.util.function.DoublePredicate p) {
    return Double.isNaN(v) ? null : p.test(v);
  }

  static String pct(double v) {
    return Double.isNaN(v) ? "n/a" : String.format("%.0f %%", 100 * v);
  }

  static String fmt(double v, int decimals) {
    return Double.isNaN(v) ? "n/a" : String.format("%." + decimals + "f", v);
  }

  private static String secs(List<Double> v, double p) {
    return fmt(Percentiles.of(v, p), 3) + " s";
  }
}

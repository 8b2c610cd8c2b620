package com.captchajobs.bench;

import com.captchajobs.core.stats.Percentiles;
import com.captchajobs.simulator.DurationConverter;
import com.captchajobs.simulator.TaskRecord;
import com.captchajobs.spring.boot.CaptchaAiProperties;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The figures listed in tools/bench/README.md, each beside its target, computed from a finished
 * run. Values are numbers (NaN when not measurable) so that tests and the report read the same
 * thing.
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

  /** Wall time from the first enqueue to the last solve ended, beside the run's zero-lag limit. */
  private void wallAgainstLimit() {
    double wall = (run.endMillis() - run.startMillis()) / 1000.0;
    double limit = ProviderLedger.zeroLagLimitSeconds(run.tasks(), cap);
    put("wall_s", wall);
    put("zero_lag_limit_s", limit);
    put("wall_over_limit", wall / limit);
    row(
        "wall / zero-lag limit",
        fmt(wall, 1)
            + " / "
            + fmt(limit, 1)
            + " s ("
            + fmt(wall / limit, 2)
            + "; the limit: the provider's own solve times of this run's "
            + run.tasks().size()
            + " tasks on C = "
            + cap
            + " threads, each answer taken the instant it is ready; outages and kills not"
            + " subtracted)",
        "(≤ 1.10 on the peers' workload with push)",
        null);
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
    wallAgainstLimit();

    double meanSolve = meanSolveSeconds();
    put("mean_solve_s", meanSolve);

    // gate slots (the engine's own table: a diagnostic) and provider threads (the provider's side)
    Backlog backlog = backlog();
    put("backlog_s", backlog.seconds);
    put("gate_util", backlog.gateUtil);
    row(
        "gate-slot utilisation (engine's gate_slot table, diagnostic)",
        pct(backlog.gateUtil) + " over " + fmt(backlog.seconds, 1) + " s of backlog",
        "(≥ 99 %)",
        null);
    providerThreads(meanSolve);

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
    java.util.Set<Long> askedAbout = ProviderLedger.askedAbout(run.requests(), run.pushes());
    long orphans = run.tasks().stream().filter(t -> !askedAbout.contains(t.id())).count();
    put("orphan_tasks", orphans);
    if (orphans > 0) {
      int known =
          maxConcurrent(run.tasks().stream().filter(t -> askedAbout.contains(t.id())).toList());
      put("overshoot_known", known - cap);
      row(
          "overshoot without never-asked-about tasks",
          String.valueOf(known - cap),
          "0 ("
              + orphans
              + " task(s) no get named and no push of which was accepted: reply lost or node"
              + " killed before storing the id)",
          known - cap <= 0);
    }
    if (overshoot > 0) {
      overCap();
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
            + "; the harness's enqueue call → the simulator's acceptance, both on the simulator's clock)",
        "p95 ≤ 0.25 s",
        ok(Percentiles.of(enqueueToSubmit, 0.95), v -> v <= 0.25));
    row(
        "freed slot -> in.php p95 (engine's slot_handoff table, diagnostic)",
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
        "(p95 ≤ 1 s)",
        null);
    List<Double> lateness =
        run.polls().stream().map(p -> (p.calledAt() - p.intendedAt()) / 1000.0).toList();
    put("lateness_p50", Percentiles.of(lateness, 0.5));
    put("lateness_p95", Percentiles.of(lateness, 0.95));
    row(
        "poll lateness p50 / p95 (engine's poll table, diagnostic)",
        secs(lateness, 0.5) + " / " + secs(lateness, 0.95) + " (n=" + lateness.size() + ")",
        "(p95 ≤ 0.5 s)",
        null);

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
    ProviderLedger.Spacing spacing = ProviderLedger.spacing(run.requests());
    put("res_gets", spacing.gets());
    put(
        "res_shortest_gap_s",
        spacing.shortestMillis() < 0 ? Double.NaN : spacing.shortestMillis() / 1000.0);
    put("res_gaps_under_5s", spacing.gapsUnder5s());
    row(
        "res.php calls per solve",
        fmt(resPerSolve, 2)
            + " ("
            + spacing.gets()
            + " gets on "
            + spacing.tasks()
            + " task(s), the simulator's request log)",
        "(1 with push: the fetch each push rings for; about 1 + (solve time − 5 s) / 5 s polling)",
        null);
    row(
        "res.php spacing per task (simulator's request log)",
        "shortest gap "
            + (spacing.shortestMillis() < 0
                ? "n/a"
                : fmt(spacing.shortestMillis() / 1000.0, 3) + " s")
            + "; "
            + spacing.gapsUnder5s()
            + " gap(s) under 5 s on "
            + spacing.tasksUnder5s()
            + " task(s)"
            + (spacing.examples().isEmpty() ? "" : " " + spacing.examples()),
        "0 gaps under 5 s",
        spacing.gapsUnder5s() == 0);
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
    if (run.backup().configured()) {
      BackupFigures.add(this);
    }
    nodes();
    if (run.options().mode() == BenchOptions.Mode.VIP) {
      VipFigures.add(this);
    }
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

  private record Backlog(double seconds, double gateUtil) {}

  /**
   * Slots held / C over the sample intervals with a backlog: the engine's own tables (a diagnostic;
   * the provider's side is {@link #providerThreads}).
   */
  private Backlog backlog() {
    List<Sampler.Sample> s = run.samples();
    double backlogMillis = 0;
    double held = 0;
    for (int i = 0; i + 1 < s.size(); i++) {
      if (s.get(i).backlog() == 0) {
        continue;
      }
      long a = s.get(i).atMillis();
      long b = s.get(i + 1).atMillis();
      backlogMillis += b - a;
      held += Math.min(s.get(i).slotsHeld(), cap) * (double) (b - a);
    }
    if (backlogMillis == 0) {
      return new Backlog(0, Double.NaN);
    }
    return new Backlog(backlogMillis / 1000, held / (cap * backlogMillis));
  }

  private double meanSolveSeconds() {
    List<TaskRecord> started = run.tasks().stream().filter(t -> t.readyAt() > 0).toList();
    if (started.isEmpty()) {
      return run.options().mix().expectedMeanSolveSeconds(run.options().timeScale());
    }
    return started.stream().mapToLong(TaskRecord::solveMillis).average().orElse(0) / 1000.0;
  }

  /**
   * Ready at the provider → the answer delivered to the engine (the first get that returned it: a
   * push only makes the engine fetch it sooner), per method: the simulator's task records, request
   * log and push log. The last line is the simulator's own figure (ready → first successful get).
   */
  private void fetchLag() {
    Map<String, List<Double>> lags =
        ProviderLedger.fetchLags(run.tasks(), run.requests(), run.pushes());
    if (lags.isEmpty()) {
      row(
          "fetch lag (ready → delivered) per type",
          "n/a (no answer delivered)",
          "≤ 3 s / ≤ 5.5 s",
          null);
    }
    List<Double> all = new ArrayList<>();
    lags.forEach(
        (method, l) -> {
          all.addAll(l);
          double mean = l.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
          double p95 = Percentiles.of(l, 0.95);
          put("fetch_lag_mean_" + method, mean);
          put("fetch_lag_p95_" + method, p95);
          row(
              "fetch lag " + method + " mean / p95 (ready → delivered, simulator)",
              fmt(mean, 2) + " s / " + fmt(p95, 2) + " s (n=" + l.size() + ")",
              "≤ 3 s / ≤ 5.5 s",
              mean <= 3.0 && p95 <= 5.5);
        });
    double mean = all.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    put("fetch_lag_mean", mean);
    long pushed = run.pushes().stream().filter(p -> p.status() >= 200 && p.status() < 300).count();
    put("pushes_accepted", pushed);
    if (run.options().push()) {
      // Lost pushes (injected), and pushes refused while the database is down, leave answers to
      // the fallback poll by design: the target is for a run without them.
      boolean judged =
          !run.options().pushFaults().any() && run.options().mode() != BenchOptions.Mode.CHAOS;
      row(
          "fetch lag, all types, mean (push on)",
          fmt(mean, 2)
              + " s; pushes "
              + run.pushes().size()
              + " ("
              + pushed
              + " accepted by the app node)",
          judged ? "≤ 0.5 s with push" : "(≤ 0.5 s when pushes are neither lost nor refused)",
          judged ? ok(mean, v -> v <= 0.5) : null);
    }
    fetchLagByOutage();
    put("sim_fetch_lag_mean", run.stats().fetchLagMeanSeconds());
    put("sim_fetch_lag_p95", run.stats().fetchLagP95Seconds());
    row(
        "fetch lag, all types (simulator: ready → first get) mean / p95",
        fmt(run.stats().fetchLagMeanSeconds(), 2)
            + " s / "
            + fmt(run.stats().fetchLagP95Seconds(), 2)
            + " s",
        run.options().push() ? "(polling is the fallback)" : "≤ 3 s / ≤ 5.5 s",
        run.options().push()
            ? null
            : run.stats().fetchLagMeanSeconds() <= 3.0 && run.stats().fetchLagP95Seconds() <= 5.5);
  }

  /**
   * Ready → delivered for answers ready outside the harness's outage windows (provider and
   * database) and inside them: the simulator's task records and request log, the harness's times.
   */
  private void fetchLagByOutage() {
    List<long[]> outages =
        run.chaos().outages().stream().map(o -> new long[] {o.fromMillis(), o.toMillis()}).toList();
    List<List<Double>> split =
        ProviderLedger.fetchLagsByOutage(run.tasks(), run.requests(), outages);
    for (int i = 0; i < 2; i++) {
      List<Double> l = split.get(i);
      String key = i == 0 ? "outside" : "during";
      double mean = l.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
      double p95 = Percentiles.of(l, 0.95);
      put("fetch_lag_" + key + "_mean", mean);
      put("fetch_lag_" + key + "_p95", p95);
      put("fetch_lag_" + key + "_n", l.size());
      boolean judged = i == 0 && run.options().push();
      row(
          "fetch lag, answers ready " + key + " outages, mean / p95 (ready → delivered, simulator)",
          fmt(mean, 2) + " s / " + fmt(p95, 2) + " s (n=" + l.size() + ")",
          judged ? "mean ≤ 1.0 s with push" : "(outages left to the fallback)",
          judged ? ok(mean, v -> v <= 1.0) : null);
    }
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

  /** The engine's token lifetime per simulator method, as configured for the workers. */
  Map<String, java.time.Duration> tokenLifetimes() {
    Map<com.captchajobs.core.client.CaptchaType, java.time.Duration> ttl =
        new HashMap<>(new CaptchaAiProperties().getTokenTtl());
    run.options()
        .workerProps()
        .forEach(
            (k, v) -> {
              if (k.startsWith("captchaai.token-ttl.")) {
                ttl.put(
                    com.captchajobs.core.client.CaptchaType.valueOf(
                        k.substring("captchaai.token-ttl.".length())),
                    DurationConverter.parse(v));
              }
            });
    Map<String, java.time.Duration> out = new HashMap<>();
    out.put("turnstile", ttl.get(com.captchajobs.core.client.CaptchaType.TURNSTILE));
    out.put("userrecaptcha", ttl.get(com.captchajobs.core.client.CaptchaType.RECAPTCHA_V2));
    out.put("base64", ttl.get(com.captchajobs.core.client.CaptchaType.IMAGE));
    out.put("post", ttl.get(com.captchajobs.core.client.CaptchaType.IMAGE));
    return out;
  }

  java.time.Duration solveTimeout() {
    String v = run.options().workerProps().get("captchaai.solve-timeout");
    return v == null ? new CaptchaAiProperties().getSolveTimeout() : DurationConverter.parse(v);
  }

  /**
   * Paid duplicates per business key, from the simulator's task records (grouped by subject), with
   * a cause taken only from its request and push logs and the harness's kill times ({@link
   * ProviderLedger#duplicates}).
   */
  private void duplicates() {
    ProviderLedger.Duplicates d =
        ProviderLedger.duplicates(
            run.tasks(),
            run.requests(),
            run.pushes(),
            run.chaos().kills().stream().map(Chaos.Kill::atMillis).toList(),
            run.labels(),
            tokenLifetimes(),
            solveTimeout());
    long explained = d.count(ProviderLedger.Kind.EXPLAINED);
    long byDesign = d.count(ProviderLedger.Kind.BY_DESIGN);
    long unexplained = d.count(ProviderLedger.Kind.UNEXPLAINED);
    put("duplicate_submits", d.paid());
    put("duplicates_accepted", d.accepted());
    put("lost_responses", ProviderLedger.lostReplies(run.requests()));
    put("duplicates_explained", explained);
    put("duplicates_given_up", byDesign);
    put("duplicates_unexplained", unexplained);
    String detail =
        d.paid()
            + " paid ("
            + d.keys()
            + " business key(s) with more than one task, "
            + d.accepted()
            + " extra accepted; simulator's task records)"
            + (d.pairs().isEmpty() ? "" : "; causes " + d.byCause())
            + (unexplained == 0
                ? ""
                : "; not explained: " + d.described(ProviderLedger.Kind.UNEXPLAINED, 10))
            + (byDesign == 0
                ? ""
                : "; by design: " + d.described(ProviderLedger.Kind.BY_DESIGN, 5));
    if (run.options().mode() == BenchOptions.Mode.CHAOS) {
      row(
          "paid duplicates per business key",
          detail,
          "0 not explained by a lost reply, a kill or a rule",
          unexplained == 0);
    } else {
      row("paid duplicates per business key", detail, "0", d.accepted() == 0);
    }
  }

  /**
   * Each permanent request may be told its code once: the permanent codes the simulator delivered
   * (its request log; a lost reply left out) beyond one per permanent request. The JobRunr jobs of
   * permanently failed solves holding more than one FAILED state are listed beside it (the engine's
   * table, a diagnostic).
   */
  private void permanent() {
    if (run.options().mode() != BenchOptions.Mode.CHAOS) {
      return;
    }
    long requested = run.permanentRequests();
    Map<String, Long> codes =
        ProviderLedger.deliveredCodes(
            run.requests(), c -> com.captchajobs.core.client.ErrorClass.of(c).permanent());
    long delivered = codes.getOrDefault("in.php ERROR_BAD_TOKEN_OR_PAGEURL", 0L);
    long otherCodes =
        codes.entrySet().stream()
            .filter(e -> !e.getKey().equals("in.php ERROR_BAD_TOKEN_OR_PAGEURL"))
            .mapToLong(Map.Entry::getValue)
            .sum();
    long retriedJobs = run.permanentJobs().stream().filter(j -> j.failedStates() > 1).count();
    long retried = Math.max(0, delivered - requested);
    put("permanent_retried", retried);
    put("permanent_other_codes", otherCodes);
    row(
        "permanent codes retried",
        retried
            + " ("
            + requested
            + " permanent request(s); the code delivered "
            + delivered
            + "× (simulator's request log); permanent codes delivered: "
            + codes
            + "; engine's jobs with more than one FAILED state: "
            + retriedJobs
            + " of "
            + run.permanentJobs().size()
            + ")",
        "0",
        retried == 0);
  }

  /**
   * Provider-thread utilisation and idle paid threads ({@link ProviderLedger#occupancy}): while
   * work waits (a solve the harness enqueued, not ended at the provider, with no task there),
   * outside outage windows.
   */
  private void providerThreads(double meanSolve) {
    List<long[]> outages =
        run.chaos().outages().stream().map(o -> new long[] {o.fromMillis(), o.toMillis()}).toList();
    int plan = run.options().planThreads();
    ProviderLedger.Occupancy occ =
        ProviderLedger.occupancy(
            run.tasks(),
            primaryEnqueuedAt(),
            outages,
            cap,
            plan,
            run.startMillis(),
            run.endMillis());
    double providerTarget = meanSolve / (meanSolve + 3.0);
    put("provider_target", providerTarget);
    put("provider_util", occ.utilCap());
    put("provider_util_plan", occ.utilPlan());
    put("waiting_s", occ.waitingSeconds());
    put("idle_paid_s", occ.idleCapSeconds());
    put("idle_paid_longest_s", occ.longestIdleCap());
    put("idle_plan_s", occ.idlePlanSeconds());
    put("idle_plan_longest_s", occ.longestIdlePlan());
    row(
        "provider-thread utilisation",
        pct1(occ.utilCap())
            + " of the fleet cap C = "
            + cap
            + ", "
            + pct1(occ.utilPlan())
            + " of the plan's "
            + plan
            + " threads, over "
            + fmt(occ.waitingSeconds(), 1)
            + " s with work waiting"
            + (outages.isEmpty() ? "" : " outside outage windows")
            + (run.backup().configured() ? ", solves the backup accepted left out" : "")
            + " (simulator's task records)",
        "≥ " + pct(providerTarget) + " of C (mean solve " + fmt(meanSolve, 2) + " s)",
        ok(occ.utilCap(), v -> v >= providerTarget));
    row(
        "idle paid threads",
        fmt(occ.idleCapSeconds(), 1)
            + " s with work waiting, the provider reachable and fewer than C = "
            + cap
            + " in flight, longest "
            + fmt(occ.longestIdleCap(), 1)
            + " s"
            + (occ.longestIdleCapFrom() == 0
                ? ""
                : " from t="
                    + fmt((occ.longestIdleCapFrom() - run.startMillis()) / 1000.0, 1)
                    + " s")
            + "; below the plan's "
            + plan
            + ": "
            + fmt(occ.idlePlanSeconds(), 1)
            + " s, longest "
            + fmt(occ.longestIdlePlan(), 1)
            + " s",
        "longest ≤ 5 s",
        ok(occ.longestIdleCap(), v -> v <= 5.0));
    idleCauses(occ);
    List<Chaos.Kill> kills = run.chaos().kills();
    if (!kills.isEmpty()) {
      long from = kills.get(0).atMillis();
      ProviderLedger.Occupancy after =
          ProviderLedger.occupancy(
              run.tasks(), primaryEnqueuedAt(), outages, cap, plan, from, run.endMillis());
      put("provider_util_after_kill", after.utilCap());
      row(
          "provider-thread utilisation from the first kill -9",
          pct1(after.utilCap())
              + " of C = "
              + cap
              + ", "
              + pct1(after.utilPlan())
              + " of the plan's "
              + plan
              + ", over "
              + fmt(after.waitingSeconds(), 1)
              + " s with work waiting from t="
              + fmt((from - run.startMillis()) / 1000.0, 1)
              + " s"
              + (outages.isEmpty() ? "" : " outside outage windows"),
          "(≥ 85 % of C with push)",
          null);
    }
  }

  /**
   * The solves the primary's figures wait for: every one the harness enqueued, less, with a backup,
   * those the backup accepted (the primary's records show no task for them, so they would seem to
   * wait there until the run's end).
   */
  private Map<String, Long> primaryEnqueuedAt() {
    if (!run.backup().configured()) {
      return run.enqueuedAt();
    }
    Set<String> atBackup =
        run.backup().tasks().stream().map(TaskRecord::subject).collect(Collectors.toSet());
    Map<String, Long> out = new LinkedHashMap<>(run.enqueuedAt());
    out.keySet().removeAll(atBackup);
    return out;
  }

  /**
   * Where the idle paid threads' seconds went ({@link IdleCauses}): over the whole run and over its
   * longest stretch, from the provider's side and the harness's kill and outage times.
   */
  private void idleCauses(ProviderLedger.Occupancy occ) {
    Chaos.Events e = run.chaos();
    List<Long> kills = e.kills().stream().map(Chaos.Kill::atMillis).toList();
    List<Long> dbBack = new ArrayList<>();
    List<Long> providerBack = new ArrayList<>();
    e.postgresRestarts().forEach(r -> dbBack.add(r[1]));
    for (Chaos.Outage o : e.outages()) {
      (Chaos.Outage.DATABASE.equals(o.kind()) ? dbBack : providerBack).add(o.toMillis());
    }
    IdleCauses.Events events = new IdleCauses.Events(kills, dbBack, providerBack);
    long hold = lostSubmitHold().toMillis();
    IdleCauses.Breakdown all =
        IdleCauses.of(
            occ.idle(), run.tasks(), run.requests(), run.pushes(), events, hold, run.endMillis());
    List<long[]> longest = longestStretch(occ.idle());
    IdleCauses.Breakdown worst =
        IdleCauses.of(
            longest, run.tasks(), run.requests(), run.pushes(), events, hold, run.endMillis());
    put("idle_thread_s", all.threadSeconds());
    all.byCause().forEach((c, v) -> put("idle_thread_s_" + c.name().toLowerCase(), v));
    row(
        "idle paid threads by cause (thread-seconds; simulator's logs, the harness's kill and"
            + " outage times)",
        all.threadSeconds() == 0 ? "none" : all.describe(),
        "(each cause shrinks)",
        null);
    double window = occ.waitingSeconds() * cap;
    if (window > 0) {
      double forced = all.byCause().getOrDefault(IdleCauses.Cause.FAILED_GET_RULE, 0.0);
      double ceiling = occ.utilCap() + forced / window;
      put("provider_util_ceiling", ceiling);
      row(
          "provider-thread utilisation ceiling under the 5-second rule",
          pct1(ceiling)
              + " of C: the utilisation above if the "
              + fmt(forced, 1)
              + " thread-s the rule forces after failed gets of ready answers had been busy",
          "(the best any engine can reach with these faults)",
          null);
    }
    if (!longest.isEmpty()) {
      row(
          "idle paid threads by cause, longest stretch (t="
              + fmt((longest.get(0)[0] - run.startMillis()) / 1000.0, 1)
              + " s to t="
              + fmt((longest.get(longest.size() - 1)[1] - run.startMillis()) / 1000.0, 1)
              + " s)",
          worst.describe(),
          "(no stretch over 5 s)",
          null);
    }
  }

  /** The idle stretches that touch one another and make the longest run of them. */
  static List<long[]> longestStretch(List<long[]> idle) {
    List<long[]> best = List.of();
    List<long[]> cur = new ArrayList<>();
    for (long[] seg : idle) {
      if (!cur.isEmpty() && cur.get(cur.size() - 1)[1] != seg[0]) {
        cur = new ArrayList<>();
      }
      cur.add(seg);
      long len = seg[1] - cur.get(0)[0];
      if (best.isEmpty() || len > best.get(best.size() - 1)[1] - best.get(0)[0]) {
        best = List.copyOf(cur);
      }
    }
    return best;
  }

  java.time.Duration lostSubmitHold() {
    String v = run.options().workerProps().get("captchaai.lost-submit-hold");
    return v == null ? new CaptchaAiProperties().getLostSubmitHold() : DurationConverter.parse(v);
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
    ProviderLedger.Window w = ProviderLedger.window(run.requests(), o.fromMillis(), o.toMillis());
    put(name.replace(' ', '_') + "_s", o.seconds());
    put(name.replace(' ', '_') + "_gets", w.gets());
    put(name.replace(' ', '_') + "_first_submit_s", w.firstSubmitAfter());
    row(
        name,
        fmt(o.seconds(), 0)
            + " s from t="
            + fmt((o.fromMillis() - run.startMillis()) / 1000.0, 0)
            + " s; at its start "
            + o.detail()
            + "; "
            + w.gets()
            + " res.php get(s) reached the simulator in it ("
            + w.getsServed()
            + " answered by the service)",
        DurationConverter.format(planned),
        Math.abs(o.seconds() - planned.toMillis() / 1000.0) < 5);
    row(
        name + " over → first in.php",
        fmt(w.firstSubmitAfter(), 1)
            + " s (simulator's request log: the first in.php that created a task)",
        "≤ 10 s",
        ok(w.firstSubmitAfter(), v -> v <= 10.0));
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

  /**
   * The first moments the provider had more than C tasks in flight, each with the tasks then in
   * flight that the engine may not have known or may have taken for ended: never asked about (no
   * get named it, no push of it accepted), its in.php reply lost, a push of it refused, or its
   * answer ready and not yet delivered. Provider's side and harness only; printed, not judged.
   */
  private void overCap() {
    java.util.Set<Long> askedAbout = ProviderLedger.askedAbout(run.requests(), run.pushes());
    java.util.Set<Long> lostReply = new java.util.HashSet<>();
    run.requests().stream()
        .filter(r -> "LOST_RESPONSE".equals(r.fault()) && r.taskId() != 0)
        .forEach(r -> lostReply.add(r.taskId()));
    java.util.Set<Long> refused = new java.util.HashSet<>();
    run.pushes().stream()
        .filter(p -> p.status() != 0 && (p.status() < 200 || p.status() >= 300))
        .forEach(p -> refused.add(p.taskId()));
    List<String> out = new ArrayList<>();
    for (long at : overCapMoments(run.tasks(), cap, 3)) {
      List<String> odd = new ArrayList<>();
      for (TaskRecord t : run.tasks()) {
        if (t.startedAt() <= 0 || at < t.startedAt() || at >= t.readyAt()) {
          continue;
        }
        List<String> why = new ArrayList<>();
        if (!askedAbout.contains(t.id())) {
          why.add("never asked about");
        }
        if (lostReply.contains(t.id())) {
          why.add("in.php reply lost");
        }
        if (refused.contains(t.id())) {
          why.add("a push refused");
        }
        if (!why.isEmpty()) {
          odd.add(
              "task "
                  + t.id()
                  + " accepted t="
                  + fmt((t.acceptedAt() - run.startMillis()) / 1000.0, 1)
                  + " s ("
                  + String.join(", ", why)
                  + ")");
        }
      }
      long kills =
          run.chaos().kills().stream()
              .filter(k -> k.atMillis() <= at && k.atMillis() > at - 20_000)
              .count();
      out.add(
          "t="
              + fmt((at - run.startMillis()) / 1000.0, 1)
              + " s: "
              + (odd.isEmpty() ? "every task in flight known" : String.join("; ", odd))
              + "; "
              + kills
              + " kill(s) in the 20 s before");
    }
    row("over the cap (provider's side, diagnostic)", String.join(" | ", out), "(none)", null);
  }

  /** The first {@code limit} instants at which more than {@code cap} tasks were in flight. */
  static List<Long> overCapMoments(List<TaskRecord> tasks, int cap, int limit) {
    List<long[]> events = new ArrayList<>();
    for (TaskRecord t : tasks) {
      if (t.startedAt() > 0) {
        events.add(new long[] {t.startedAt(), 1});
        events.add(new long[] {t.readyAt(), -1});
      }
    }
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int now = 0;
    List<Long> out = new ArrayList<>();
    for (long[] e : events) {
      int before = now;
      now += (int) e[1];
      if (now > cap && before <= cap && out.size() < limit) {
        out.add(e[0]);
      }
    }
    return out;
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

  void put(String key, double v) {
    values.put(key, v);
  }

  void row(String name, String value, String target, Boolean ok) {
    rows.add(new Row(name, value, target, ok));
  }

  private static Boolean ok(double v, java.util.function.DoublePredicate p) {
    return Double.isNaN(v) ? null : p.test(v);
  }

  /** A share with one decimal: {@code 87.3 %}. */
  static String pct1(double v) {
    return Double.isNaN(v) ? "n/a" : String.format("%.1f %%", 100 * v);
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

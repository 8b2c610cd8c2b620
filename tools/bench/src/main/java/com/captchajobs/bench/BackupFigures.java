package com.captchajobs.bench;

import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import java.util.List;
import java.util.Map;

/**
 * The rows of a chaos run with a backup provider ({@code --backup-threads}), each counted from the
 * two simulators' own records ({@link BackupLedger}) and the harness's times, never from the
 * engine's tables: solves accepted at the backup, its spend against the daily budget, its
 * overshoot, the utilisation of its threads through the primary's outage, the solves completed
 * during that outage, and the pages paid at two providers.
 */
final class BackupFigures {

  /** Issue 36: the backup's threads in use through the primary's outage. */
  static final double OUTAGE_UTILISATION = 0.90;

  /** The primary's name, in the properties and the metrics' {@code provider} tag. */
  static final String PRIMARY = "captchaai";

  private BackupFigures() {}

  static void add(Figures f) {
    RunData run = f.run();
    RunData.Backup b = run.backup();
    int threads = b.plan().threads();
    BackupLedger.Provider primary =
        new BackupLedger.Provider(PRIMARY, run.tasks(), run.requests(), run.pushes());
    BackupLedger.Provider backup =
        new BackupLedger.Provider(BackupPlan.NAME, b.tasks(), b.requests(), b.pushes());

    long keys = b.tasks().stream().map(TaskRecord::subject).distinct().count();
    long solved = b.tasks().stream().filter(t -> "SOLVED".equals(t.outcome())).count();
    List<Double> lags =
        ProviderLedger.fetchLags(b.tasks(), b.requests(), b.pushes()).values().stream()
            .flatMap(List::stream)
            .toList();
    double lag = lags.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    long pushed = b.pushes().stream().filter(p -> p.status() >= 200 && p.status() < 300).count();
    f.put("backup_fetch_lag_mean", lag);
    f.put("backup_tasks", b.tasks().size());
    f.put("backup_keys", keys);
    f.row(
        "backup: solves accepted",
        b.tasks().size()
            + " task(s) for "
            + keys
            + " business key(s), "
            + solved
            + " solved by it; in.php refused: "
            + b.stats().rejectedSubmitsByCode()
            + "; answer ready → delivered mean "
            + Figures.fmt(lag, 2)
            + " s, p95 "
            + Figures.fmt(com.captchajobs.core.stats.Percentiles.of(lags, 0.95), 2)
            + " s (n="
            + lags.size()
            + "); pushes "
            + b.pushes().size()
            + " ("
            + pushed
            + " accepted by the app node) (the backup simulator's records)",
        "(no target)",
        null);

    BackupLedger.Spend spend = BackupLedger.spend(b.spend());
    f.put("backup_spend", spend.total().doubleValue());
    java.math.BigDecimal budget = b.plan().dailyBudget();
    boolean capped = budget != null && budget.signum() > 0;
    f.row(
        "backup: spend",
        spend.total().toPlainString()
            + " for "
            + spend.tasks()
            + " task(s) charged; by type "
            + spend.byType()
            + ", by UTC day "
            + spend.byDay()
            + " (the backup simulator's spend records; prices per 1,000 "
            + (b.plan().pricesPer1000().isEmpty()
                ? "none: billed by threads"
                : BackupPlan.prices(b.plan().pricesPer1000()))
            + ")",
        capped ? "≤ the daily budget " + budget.toPlainString() + " each UTC day" : "(no budget)",
        capped ? spend.maxDay().compareTo(budget) <= 0 : null);

    int overshoot = b.stats().maxInFlight() - threads;
    f.put("backup_overshoot", overshoot);
    f.row(
        "backup: overshoot",
        overshoot
            + " (backup simulator max in flight "
            + b.stats().maxInFlight()
            + ", its cap "
            + threads
            + ", plan "
            + b.plan().planThreads()
            + ")",
        "0",
        overshoot <= 0);

    Chaos.Outage outage = run.chaos().outage(Chaos.Outage.PROVIDER);
    String name = "backup: provider-thread utilisation through the primary's outage";
    String target = "≥ " + Figures.pct(OUTAGE_UTILISATION) + " of the backup's threads";
    if (outage == null) {
      f.row(name, "n/a: no provider outage happened", target, null);
      f.row("solves completed during the provider outage", "n/a", "(> 0 with a backup)", null);
    } else {
      List<TaskRecord> all = new java.util.ArrayList<>(run.tasks());
      all.addAll(b.tasks());
      BackupThrough.Through through =
          BackupThrough.through(
              b.tasks(),
              all,
              BackupThrough.awaitingDelivery(List.of(primary, backup), run.endMillis()),
              run.enqueuedAt(),
              threads,
              outage.fromMillis(),
              outage.toMillis(),
              run.endMillis());
      BackupThrough.Through counted =
          BackupThrough.through(
              b.tasks(),
              all,
              run.enqueuedAt(),
              threads,
              outage.fromMillis(),
              outage.toMillis(),
              run.endMillis());
      f.put("backup_outage_util_with_bound", counted.util());
      f.put("backup_outage_util", through.util());
      f.put("backup_outage_util_window", through.utilWindow());
      f.put("backup_outage_waiting_s", through.waitingSeconds());
      f.put("backup_first_task_after_outage_s", through.firstAcceptedAfter());
      f.row(
          name,
          Figures.pct1(through.util())
              + " of the backup's "
              + threads
              + " threads over "
              + Figures.fmt(through.waitingSeconds(), 1)
              + " s with work waiting of the "
              + Figures.fmt(through.windowSeconds(), 1)
              + " s outage ("
              + Figures.pct1(through.utilWindow())
              + " over the whole window; "
              + Figures.pct1(counted.util())
              + " over "
              + Figures.fmt(counted.waitingSeconds(), 1)
              + " s if a solve bound to an answer ready at a provider but not yet delivered"
              + " counted as waiting, as the backup may not take it); "
              + (Double.isNaN(through.firstAcceptedAfter())
                  ? "no task at the backup in it"
                  : "its first task at the backup "
                      + Figures.fmt(through.firstAcceptedAfter(), 1)
                      + " s after the outage began")
              + " (the simulators' task records)",
          target,
          ok(through.util(), v -> v >= OUTAGE_UTILISATION));
      idleThroughOutage(f, b, through, outage);
      f.row(
          "the primary's first calls in its outage (diagnostic: how soon the engine can judge it"
              + " down; the primary's request log)",
          firstCallsIn(run.requests(), outage.fromMillis(), 8),
          "(the down rule: 5 failures in a row over ≥ 0.5 s; after one, a worker probes every 0.125 s)",
          null);
      Map<String, Long> completed =
          BackupLedger.completedIn(
              List.of(backup, primary), outage.fromMillis(), outage.toMillis());
      long total = completed.values().stream().mapToLong(Long::longValue).sum();
      f.put("outage_completed", total);
      f.put("outage_completed_backup", completed.get(BackupPlan.NAME));
      f.row(
          "solves completed during the provider outage",
          total
              + " "
              + completed
              + " (answers first delivered in the window: the first res.php get that returned"
              + " each, each simulator's request log)",
          "> 0 (0 without a backup)",
          total > 0);
    }

    List<BackupLedger.TwoProviders> two =
        BackupLedger.paidAtTwo(
            List.of(primary, backup),
            run.chaos().kills().stream().map(Chaos.Kill::atMillis).toList(),
            run.labels(),
            f.tokenLifetimes(),
            f.solveTimeout());
    List<BackupLedger.TwoProviders> unexplained =
        two.stream().filter(t -> t.cause() == ProviderLedger.Cause.UNEXPLAINED).toList();
    f.put("paid_at_two", two.size());
    f.put("paid_at_two_unexplained", unexplained.size());
    f.row(
        "pages paid at two providers",
        two.size()
            + " business key(s) accepted at both while the first task could still answer; "
            + (two.size() - unexplained.size())
            + " of them explained by a lost in.php reply or a kill (the engine never knew the"
            + " first task)"
            + (unexplained.isEmpty()
                ? ""
                : "; not explained: "
                    + unexplained.stream()
                        .limit(10)
                        .map(BackupLedger.TwoProviders::describe)
                        .toList())
            + " (both simulators' task records and logs)",
        "0 not explained",
        unexplained.isEmpty());
  }

  /**
   * Where the backup's idle thread-seconds through the primary's outage went ({@link IdleCauses}),
   * from the backup simulator's own logs and the harness's kill and outage times; "after the
   * provider outage" counts here from the primary's outage start, when the backup began to fill.
   */
  private static void idleThroughOutage(
      Figures f, RunData.Backup b, BackupThrough.Through through, Chaos.Outage outage) {
    RunData run = f.run();
    Chaos.Events e = run.chaos();
    List<Long> databaseBack = new java.util.ArrayList<>();
    e.postgresRestarts().forEach(r -> databaseBack.add(r[1]));
    e.outages().stream()
        .filter(o -> Chaos.Outage.DATABASE.equals(o.kind()))
        .forEach(o -> databaseBack.add(o.toMillis()));
    IdleCauses.Events events =
        new IdleCauses.Events(
            e.kills().stream().map(Chaos.Kill::atMillis).toList(),
            databaseBack,
            List.of(outage.fromMillis()));
    IdleCauses.Breakdown idle =
        IdleCauses.of(
            through.idle(),
            b.tasks(),
            b.requests(),
            b.pushes(),
            events,
            f.lostSubmitHold().toMillis(),
            run.endMillis());
    f.put("backup_outage_idle_thread_s", idle.threadSeconds());
    idle.byCause()
        .forEach((c, v) -> f.put("backup_outage_idle_thread_s_" + c.name().toLowerCase(), v));
    f.row(
        "backup: idle threads through the primary's outage by cause (thread-seconds with work"
            + " waiting; the backup simulator's logs, the harness's kill and outage times; \"after"
            + " the provider outage\" counts from the primary's outage start)",
        idle.threadSeconds() == 0 ? "none" : idle.describe(),
        "(each cause shrinks)",
        null);
  }

  /**
   * The first {@code n} calls at or after {@code from}, as seconds after it with their endpoint.
   */
  static String firstCallsIn(List<RequestRecord> requests, long from, int n) {
    List<String> calls =
        requests.stream()
            .filter(r -> r.at() >= from)
            .sorted(java.util.Comparator.comparingLong(RequestRecord::at))
            .limit(n)
            .map(
                r ->
                    Figures.fmt((r.at() - from) / 1000.0, 2)
                        + " s "
                        + r.endpoint()
                        + (r.action() == null ? "" : " " + r.action()))
            .toList();
    return calls.isEmpty() ? "none" : String.join(", ", calls);
  }

  private static Boolean ok(double v, java.util.function.DoublePredicate p) {
    return Double.isNaN(v) ? null : p.test(v);
  }
}

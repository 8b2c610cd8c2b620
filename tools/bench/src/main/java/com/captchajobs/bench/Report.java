package com.captchajobs.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** The table on stdout, the Markdown report and its plot, for one or more runs of one mode. */
final class Report {

  private Report() {}

  static String table(Figures f) {
    List<Figures.Row> rows = f.rows();
    int w1 = Math.max(6, rows.stream().mapToInt(r -> r.name().length()).max().orElse(0));
    int w2 = Math.max(5, rows.stream().mapToInt(r -> r.value().length()).max().orElse(0));
    StringBuilder sb = new StringBuilder();
    String line = "-".repeat(w1 + w2 + 50) + "\n";
    sb.append("CaptchaJobs bench, ")
        .append(f.run().label())
        .append(f.run().timedOut() ? " (TIMED OUT)" : "")
        .append('\n');
    sb.append(line);
    sb.append(String.format("%-" + w1 + "s | %-" + w2 + "s | %s%n", "figure", "value", "target"));
    sb.append(line);
    for (Figures.Row r : rows) {
      sb.append(
          String.format(
              "%-" + w1 + "s | %-" + w2 + "s | %s%s%n",
              r.name(),
              r.value(),
              r.target(),
              verdict(r)));
    }
    sb.append(line);
    return sb.toString();
  }

  /**
   * Writes {@code <mode>.md} and its plots {@code <mode>-<label>.png} under {@code out}; returns
   * the report path.
   */
  static Path write(BenchOptions o, List<Figures> runs, Path out) {
    try {
      Files.createDirectories(out);
      String mode = o.mode().name().toLowerCase();
      StringBuilder md = new StringBuilder();
      md.append("# CaptchaJobs bench: ").append(mode).append(" run\n\n");
      md.append("Command: `").append(o.commandLine()).append("`  \n");
      md.append("Push: ")
          .append(
              o.push()
                  ? "on (answers pushed to the app node's pingback endpoint, polling as the fallback)"
                  : "off (polling only)")
          .append(
              o.push() && o.pushFaults().any()
                  ? String.format(
                      "; the simulator drops %.0f %% of its pushes, sends %.0f %% twice and each"
                          + " %s late",
                      100 * o.pushFaults().drop(),
                      100 * o.pushFaults().duplicate(),
                      com.captchajobs.simulator.DurationConverter.format(o.pushFaults().delay()))
                  : "")
          .append("  \n");
      if (o.workerCds()) {
        md.append(
            "Workers: started from the extracted worker jar with a class-data archive written by"
                + " a training start before the run (`--worker-cds`, see docs/operations.md)  \n");
      }
      if (o.backup().configured()) {
        md.append("Backup: a second simulator named `")
            .append(BackupPlan.NAME)
            .append("` with ")
            .append(o.backup().threads())
            .append(
                " threads for the fleet (`captchajobs.providers.backup.*`, role `backup`), prices")
            .append(" per 1,000 ")
            .append(
                o.backup().pricesPer1000().isEmpty()
                    ? "none (billed by threads)"
                    : BackupPlan.prices(o.backup().pricesPer1000()))
            .append(", daily budget ")
            .append(
                o.backup().dailyBudget() == null
                    ? "none"
                    : o.backup().dailyBudget().toPlainString())
            .append(
                "; the provider outage is the primary's only. The figures without `backup:` are")
            .append(" the primary's (`captchaai`) records.  \n");
      }
      md.append(
          "The judging figures are counted from the simulator's request log, task records and push"
              + " log and the harness's own enqueue, kill and outage times; rows marked"
              + " \"diagnostic\" read the engine's tables.  \n");
      md.append("Finished: ")
          .append(Instant.now())
          .append(" on ")
          .append(Runtime.getRuntime().availableProcessors())
          .append(" cores (")
          .append(System.getProperty("os.name"))
          .append(", Java ")
          .append(System.getProperty("java.version"))
          .append(")  \n");
      Figures first = runs.get(0);
      md.append("PostgreSQL: ")
          .append(o.jdbcUrl() == null ? "embedded (zonky)" : "external")
          .append(", ")
          .append(first.run().pgSettings())
          .append("  \n\n");
      for (Figures f : runs) {
        String png = mode + "-" + f.run().label().replaceAll("[^a-zA-Z0-9-]", "-") + ".png";
        Plot.writePng(f.run(), out.resolve(png));
        md.append("## ")
            .append(f.run().label())
            .append(f.run().timedOut() ? " (TIMED OUT)" : "")
            .append("\n\n");
        md.append("![in flight over time](").append(png).append(")\n\n");
        md.append("| figure | value | target | |\n| --- | --- | --- | --- |\n");
        for (Figures.Row r : f.rows()) {
          md.append("| ")
              .append(r.name())
              .append(" | ")
              .append(r.value())
              .append(" | ")
              .append(r.target())
              .append(" | ")
              .append(r.ok() == null ? "" : r.ok() ? "ok" : "**MISSED**")
              .append(" |\n");
        }
        md.append("\nPlain lines (for scripts):\n\n```\n");
        md.append("run: ").append(f.run().label()).append('\n');
        md.append(scriptLines(f));
        md.append("```\n\n");
        if (!f.run().chaos().notes().isEmpty() || !f.run().chaos().kills().isEmpty()) {
          md.append("Chaos: ")
              .append(f.run().chaos().kills().size())
              .append(" kill -9, ")
              .append(f.run().chaos().postgresRestarts().size())
              .append(" PostgreSQL restart(s), ")
              .append(
                  f.run().chaos().outages().stream()
                      .map(x -> x.kind() + " outage " + Figures.fmt(x.seconds(), 0) + " s")
                      .collect(java.util.stream.Collectors.joining(", ")))
              .append(". ")
              .append(String.join("; ", f.run().chaos().notes()))
              .append("\n\n");
        }
      }
      Path report = out.resolve(mode + ".md");
      Files.writeString(report, md.toString());
      return report;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + out, e);
    }
  }

  /** {@code overshoot: 0}, {@code provider-thread utilisation: 71 % (target ≥ 67 %)}, ... */
  static String scriptLines(Figures f) {
    StringBuilder sb = new StringBuilder();
    sb.append("solves lost: ").append((long) f.value("lost")).append('\n');
    sb.append("solves stuck: ").append((long) f.value("stuck")).append('\n');
    sb.append("overshoot: ").append(Math.max(0, (long) f.value("overshoot"))).append('\n');
    sb.append("duplicate submits: ").append((long) f.value("duplicate_submits")).append('\n');
    sb.append("idle paid threads, longest stretch: ")
        .append(Figures.fmt(f.value("idle_paid_longest_s"), 1))
        .append(" s\n");
    if (!Double.isNaN(f.value("permanent_retried"))) {
      sb.append("duplicates not explained: ")
          .append((long) f.value("duplicates_unexplained"))
          .append('\n');
      sb.append("duplicates by design: ")
          .append((long) f.value("duplicates_given_up"))
          .append('\n');
      sb.append("permanent codes retried: ")
          .append((long) f.value("permanent_retried"))
          .append('\n');
    }
    if (!Double.isNaN(f.value("paid_at_two"))) {
      sb.append("pages paid at two providers: ")
          .append((long) f.value("paid_at_two"))
          .append(" (not explained: ")
          .append((long) f.value("paid_at_two_unexplained"))
          .append(")\n");
      sb.append("backup threads in use through the provider outage: ")
          .append(Figures.pct1(f.value("backup_outage_util")))
          .append('\n');
    }
    for (String key : List.of("outside", "during")) {
      if (!Double.isNaN(f.value("fetch_lag_" + key + "_n"))) {
        sb.append("fetch lag, ")
            .append(key)
            .append(" outages: mean ")
            .append(Figures.fmt(f.value("fetch_lag_" + key + "_mean"), 2))
            .append(" s, p95 ")
            .append(Figures.fmt(f.value("fetch_lag_" + key + "_p95"), 2))
            .append(" s (n=")
            .append((long) f.value("fetch_lag_" + key + "_n"))
            .append(")\n");
      }
    }
    for (Figures.Row r : f.rows()) {
      sb.append(r.name()).append(": ").append(r.value());
      if (!r.target().startsWith("(")) {
        sb.append(" (target ").append(r.target()).append(')');
      }
      sb.append(r.ok() == null ? "" : r.ok() ? "" : " MISSED").append('\n');
    }
    return sb.toString();
  }

  private static String verdict(Figures.Row r) {
    return r.ok() == null ? "" : r.ok() ? "  ok" : "  MISSED";
  }
}

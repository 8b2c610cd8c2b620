package com.captchajobs.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench's command line: runs a mode, prints the table of figures (tools/bench/README.md) for
 * each run, writes the Markdown report and plot. Exit code 0 when every run ended without timing
 * out, 1 otherwise, 2 on a bad argument.
 *
 * <pre>
 * ./mvnw -q -pl tools/bench -am package -DskipTests
 * java -jar tools/bench/target/captchajobs-bench.jar --mode default --solves 300 --workers 3 --threads 10 \
 *     --mix TURNSTILE:0.6,RECAPTCHA_V2:0.3,IMAGE:0.1 --time-scale 0.2
 * </pre>
 */
public final class BenchMain {

  private BenchMain() {}

  public static void main(String[] args) {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (BenchOptions.HelpRequested e) {
      System.out.print(BenchOptions.usage());
      return;
    } catch (RuntimeException e) {
      System.err.println("captchajobs-bench: " + e.getMessage());
      System.err.print(BenchOptions.usage());
      System.exit(2);
      return;
    }
    if (options.mode() == BenchOptions.Mode.ENQUEUE) {
      EnqueueRate.run(options);
      return;
    }
    List<Figures> runs = runAll(options);
    Path report = Report.write(options, runs, options.out());
    System.out.println("[bench] report: " + report.toAbsolutePath());
    boolean allEnded = runs.stream().noneMatch(f -> f.run().timedOut());
    System.exit(allEnded ? 0 : 1);
  }

  /** Runs the mode (scale mode: once per fleet size) and prints each table as it completes. */
  public static List<Figures> runAll(BenchOptions options) {
    List<Figures> runs = new ArrayList<>();
    if (options.mode() == BenchOptions.Mode.SCALE) {
      if (options.jdbcUrl() != null && options.scaleWorkers().size() > 1) {
        throw new IllegalArgumentException(
            "--mode scale with --jdbc-url needs one fleet size (--scale-workers K):"
                + " each run needs an empty database");
      }
      for (int k : options.scaleWorkers()) {
        runs.add(runOne(options.withWorkers(k), k + " worker node" + (k == 1 ? "" : "s")));
      }
    } else {
      runs.add(
          runOne(
              options,
              options.mode().name().toLowerCase() + ", " + options.workers() + " workers"));
    }
    return runs;
  }

  private static Figures runOne(BenchOptions options, String label) {
    Figures f = Figures.of(BenchRun.run(options, label));
    System.out.println();
    System.out.print(Report.table(f));
    return f;
  }
}

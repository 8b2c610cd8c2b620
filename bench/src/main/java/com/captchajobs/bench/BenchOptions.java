package com.captchajobs.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command-line settings of one bench invocation. Every default is listed in {@link #defaults}; the
 * mode picks its own defaults first ({@link #forMode}), then the flags given override them.
 */
public record BenchOptions(
    Mode mode,
    int solves,
    int workers,
    int threads,
    int reserve,
    TypeMix mix,
    double timeScale,
    long seed,
    String jdbcUrl,
    Path out,
    Path workerJar,
    List<Integer> scaleWorkers,
    Duration killEvery,
    double faultRate,
    int permanentSolves,
    Duration providerOutage,
    Duration dbOutage,
    Duration timeout,
    int workerCount,
    int poolSize,
    String workerHeap,
    Map<String, String> workerProps) {

  /** What a run does. */
  public enum Mode {
    DEFAULT,
    SCALE,
    CHAOS
  }

  public static final String USAGE =
      """
      Usage: java -jar bench/target/captchajobs-bench.jar [options]
        --mode default|scale|chaos     what to run (default: default)
        --solves N                     solves to drive (default 300; scale 2000; chaos 500)
        --workers K                    worker JVMs (default 3)
        --threads C                    fleet cap, captchaai.threads (default 10; scale 200)
        --reserve R                    extra plan threads on the simulator so overshoot is visible (default max(2, C/5))
        --mix T:w,T:w                  type mix (default TURNSTILE:0.6,RECAPTCHA_V2:0.3,IMAGE:0.1; scale TURNSTILE:1)
        --time-scale X                 simulator solve-time multiplier (default 0.2; scale 0.1)
        --seed S                       simulator and mix seed (default 1)
        --jdbc-url URL                 use this PostgreSQL instead of an embedded one (must be empty)
        --out DIR                      report and plot directory (default docs/bench)
        --worker-jar PATH              worker jar (default worker/target/captchajobs-worker.jar if present, else class path)
        --scale-workers 1,3            scale mode: fleet sizes to measure one after the other (default 1,3)
        --kill-every 20s               chaos mode: kill -9 a random worker this often (default 20s)
        --fault-rate 0.10              chaos mode: share of provider calls that fault (default 0.10)
        --permanent N                  chaos mode: solves whose request the provider rejects permanently (default 5)
        --provider-outage 4m           chaos mode: every provider call answers an HTML 502 this long, once (default 4m; 0 = none)
        --db-outage 60s                chaos mode: the nodes' database connections are reset and refused this long, once (default 60s; 0 = none)
        --timeout 15m                  give up waiting for the solves after this (default 15m; chaos 40m)
        --worker-count N               captchajobs.worker.worker-count (default 64; scale 300)
        --pool-size N                  spring.datasource.hikari.maximum-pool-size on workers (default 10; scale 30)
        --worker-heap 512m             -Xmx of worker JVMs (default 512m)
        --worker-prop key=value        extra worker property, repeatable (e.g. captchaai.min-first-poll-wait=1s)
      """;

  private static final java.util.Set<String> FLAGS =
      java.util.Set.of(
          "mode",
          "solves",
          "workers",
          "threads",
          "reserve",
          "mix",
          "time-scale",
          "seed",
          "jdbc-url",
          "out",
          "worker-jar",
          "scale-workers",
          "kill-every",
          "fault-rate",
          "permanent",
          "provider-outage",
          "db-outage",
          "timeout",
          "worker-count",
          "pool-size",
          "worker-heap",
          "worker-prop",
          "help");

  public static BenchOptions defaults() {
    return forMode(Mode.DEFAULT);
  }

  /** The defaults of a mode. */
  public static BenchOptions forMode(Mode mode) {
    boolean scale = mode == Mode.SCALE;
    Map<String, String> props = new LinkedHashMap<>();
    if (scale) {
      // Fast solves: the first poll after 1 s instead of the documented waits.
      for (String type : List.of("TURNSTILE", "RECAPTCHA_V2", "IMAGE")) {
        props.put("captchaai.first-poll-wait." + type, "1s");
      }
      props.put("captchaai.min-first-poll-wait", "1s");
      props.put("captchaai.learn-after-solves", "1000000");
    }
    return new BenchOptions(
        mode,
        switch (mode) {
          case SCALE -> 2000;
          case CHAOS -> 500;
          default -> 300;
        },
        3,
        scale ? 200 : 10,
        -1,
        TypeMix.parse(scale ? "TURNSTILE:1" : "TURNSTILE:0.6,RECAPTCHA_V2:0.3,IMAGE:0.1"),
        scale ? 0.1 : 0.2,
        1,
        null,
        Path.of("docs", "bench"),
        null,
        List.of(1, 3),
        Duration.ofSeconds(20),
        0.10,
        5,
        Duration.ofMinutes(4),
        Duration.ofSeconds(60),
        Duration.ofMinutes(mode == Mode.CHAOS ? 40 : 15),
        scale ? 300 : 64,
        scale ? 30 : 10,
        "512m",
        props);
  }

  /** Parses {@code --name value} and {@code --name=value} flags; unknown flags are an error. */
  public static BenchOptions parse(String... args) {
    Map<String, List<String>> flags = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
      }
      String name = arg.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else if (name.equals("help")) {
        value = "";
      } else {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("--" + name + " needs a value");
        }
        value = args[++i];
      }
      flags.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }
    for (String name : flags.keySet()) {
      if (!FLAGS.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name);
      }
    }
    if (flags.containsKey("help")) {
      throw new HelpRequested();
    }
    Mode mode = Mode.valueOf(last(flags, "mode", "default").toUpperCase());
    BenchOptions d = forMode(mode);
    Map<String, String> props = new LinkedHashMap<>(d.workerProps());
    for (String kv : flags.getOrDefault("worker-prop", List.of())) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--worker-prop needs key=value, got '" + kv + "'");
      }
      props.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    BenchOptions o =
        new BenchOptions(
            mode,
            positive("solves", Integer.parseInt(last(flags, "solves", String.valueOf(d.solves())))),
            positive(
                "workers", Integer.parseInt(last(flags, "workers", String.valueOf(d.workers())))),
            positive(
                "threads", Integer.parseInt(last(flags, "threads", String.valueOf(d.threads())))),
            Integer.parseInt(last(flags, "reserve", "-1")),
            flags.containsKey("mix") ? TypeMix.parse(last(flags, "mix", null)) : d.mix(),
            Double.parseDouble(last(flags, "time-scale", String.valueOf(d.timeScale()))),
            Long.parseLong(last(flags, "seed", String.valueOf(d.seed()))),
            last(flags, "jdbc-url", null),
            Path.of(last(flags, "out", d.out().toString())),
            flags.containsKey("worker-jar") ? Path.of(last(flags, "worker-jar", null)) : null,
            flags.containsKey("scale-workers")
                ? parseInts(last(flags, "scale-workers", null))
                : d.scaleWorkers(),
            Durations.parse(last(flags, "kill-every", "20s")),
            Double.parseDouble(last(flags, "fault-rate", String.valueOf(d.faultRate()))),
            Integer.parseInt(last(flags, "permanent", String.valueOf(d.permanentSolves()))),
            Durations.parse(last(flags, "provider-outage", "4m")),
            Durations.parse(last(flags, "db-outage", "60s")),
            flags.containsKey("timeout")
                ? Durations.parse(last(flags, "timeout", null))
                : d.timeout(),
            positive(
                "worker-count",
                Integer.parseInt(last(flags, "worker-count", String.valueOf(d.workerCount())))),
            positive(
                "pool-size",
                Integer.parseInt(last(flags, "pool-size", String.valueOf(d.poolSize())))),
            last(flags, "worker-heap", d.workerHeap()),
            Map.copyOf(props));
    if (o.faultRate() < 0 || o.faultRate() > 1) {
      throw new IllegalArgumentException("--fault-rate must be in [0, 1], got " + o.faultRate());
    }
    if (o.timeScale() <= 0) {
      throw new IllegalArgumentException("--time-scale must be positive, got " + o.timeScale());
    }
    return o;
  }

  /** Plan threads on the simulator: the cap plus a reserve, so that overshoot can be observed. */
  public int planThreads() {
    return threads + (reserve >= 0 ? reserve : Math.max(2, threads / 5));
  }

  /** A copy for a run with other sizes (scale mode runs one fleet size after the other). */
  public BenchOptions withWorkers(int workers) {
    return new BenchOptions(
        mode,
        solves,
        workers,
        threads,
        reserve,
        mix,
        timeScale,
        seed,
        jdbcUrl,
        out,
        workerJar,
        scaleWorkers,
        killEvery,
        faultRate,
        permanentSolves,
        providerOutage,
        dbOutage,
        timeout,
        workerCount,
        poolSize,
        workerHeap,
        workerProps);
  }

  /** A copy for tests and the smoke run. */
  public BenchOptions with(
      int solves,
      int workers,
      int threads,
      double timeScale,
      Path out,
      Map<String, String> workerProps) {
    return new BenchOptions(
        mode,
        solves,
        workers,
        threads,
        reserve,
        mix,
        timeScale,
        seed,
        jdbcUrl,
        out,
        workerJar,
        scaleWorkers,
        killEvery,
        faultRate,
        permanentSolves,
        providerOutage,
        dbOutage,
        timeout,
        workerCount,
        poolSize,
        workerHeap,
        Map.copyOf(workerProps));
  }

  /** The command line that reproduces these options (for the report). */
  public String commandLine() {
    StringBuilder sb = new StringBuilder("java -jar bench/target/captchajobs-bench.jar");
    sb.append(" --mode ")
        .append(mode.name().toLowerCase())
        .append(" --solves ")
        .append(solves)
        .append(" --workers ")
        .append(workers)
        .append(" --threads ")
        .append(threads)
        .append(" --mix ")
        .append(mix)
        .append(" --time-scale ")
        .append(timeScale);
    if (mode == Mode.SCALE) {
      sb.append(" --scale-workers ")
          .append(String.join(",", scaleWorkers.stream().map(String::valueOf).toList()));
    }
    if (mode == Mode.CHAOS) {
      sb.append(" --kill-every ")
          .append(Durations.format(killEvery))
          .append(" --fault-rate ")
          .append(faultRate)
          .append(" --permanent ")
          .append(permanentSolves)
          .append(" --provider-outage ")
          .append(Durations.format(providerOutage))
          .append(" --db-outage ")
          .append(Durations.format(dbOutage));
    }
    sb.append(" --out ").append(out);
    return sb.toString();
  }

  /** Thrown for {@code --help}. */
  public static final class HelpRequested extends RuntimeException {
    HelpRequested() {
      super("help requested");
    }
  }

  private static String last(Map<String, List<String>> flags, String name, String fallback) {
    List<String> values = flags.get(name);
    return values == null ? fallback : values.get(values.size() - 1);
  }

  private static int positive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException("--" + name + " must be at least 1, got " + value);
    }
    return value;
  }

  private static List<Integer> parseInts(String csv) {
    List<Integer> out = new ArrayList<>();
    for (String s : csv.split(",")) {
      out.add(positive("scale-workers", Integer.parseInt(s.trim())));
    }
    return List.copyOf(out);
  }
}

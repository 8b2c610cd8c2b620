package com.captchajobs.bench;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.SimulatorStats;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One run: simulator (in this JVM), PostgreSQL, the app node (this JVM), K worker JVMs; drives N
 * solves and waits until every one has ended; returns what the figures need. Chaos, when asked,
 * kills workers, restarts PostgreSQL and injects provider faults while the run goes on.
 */
public final class BenchRun {

  /** The API key of the run: the simulator knows it; workers get it through the environment. */
  static final String API_KEY = "benchKEYbenchKEYbenchKEYbenchKEY";

  private BenchRun() {}

  public static RunData run(BenchOptions o, String label) {
    boolean chaos = o.mode() == BenchOptions.Mode.CHAOS;
    CaptchaAiSimulator.Builder simBuilder =
        CaptchaAiSimulator.builder()
            .account(API_KEY, o.planThreads())
            .timeScale(o.timeScale())
            .seed(o.seed());
    if (chaos && o.faultRate() > 0) {
      faults(o.faultRate()).forEach(simBuilder::fault);
    }
    List<WorkerJvm> fleet = new CopyOnWriteArrayList<>();
    log(
        label
            + ": simulator plan "
            + o.planThreads()
            + " threads, cap C = "
            + o.threads()
            + ", "
            + o.workers()
            + " worker JVM(s), "
            + o.solves()
            + " solves "
            + o.mix()
            + ", time scale "
            + o.timeScale());
    try (CaptchaAiSimulator sim = simBuilder.build().start();
        Database db = o.jdbcUrl() == null ? Database.embedded() : Database.external(o.jdbcUrl())) {
      log(
          "PostgreSQL at "
              + db.jdbcUrl().replaceAll("\\?.*", "")
              + (db.restartable() ? " (embedded)" : ""));
      // the counter after the app node: Spring Boot resets logback's configuration when it starts
      try (AppNode app = AppNode.start(db.jdbcUrl(), sim.baseUrl(), o.threads());
          FaultCounter faultCounter = chaos ? new FaultCounter() : null) {
        WorkerJvm.Launch launch =
            new WorkerJvm.Launch(
                workerJar(o),
                db.jdbcUrl(),
                sim.baseUrl(),
                API_KEY,
                o.threads(),
                o.workerCount(),
                o.poolSize(),
                o.workerHeap(),
                o.workerProps(),
                Path.of("target", "bench-logs", label.replaceAll("[^a-zA-Z0-9-]+", "-")));
        for (int i = 0; i < o.workers(); i++) {
          fleet.add(WorkerJvm.start("bench-w" + i, launch));
        }
        fleet.forEach(w -> w.awaitUp(Duration.ofSeconds(120)));
        log(fleet.size() + " worker JVM(s) UP");
        return drive(o, label, sim, faultCounter, db, app, fleet, launch);
      } finally {
        fleet.forEach(WorkerJvm::close);
      }
    }
  }

  private static RunData drive(
      BenchOptions o,
      String label,
      CaptchaAiSimulator sim,
      FaultCounter faultCounter,
      Database db,
      AppNode app,
      List<WorkerJvm> fleet,
      WorkerJvm.Launch launch) {
    boolean chaosMode = o.mode() == BenchOptions.Mode.CHAOS;
    List<AppNode.Request> requests = requests(o, label);
    long[] machineStart = ProcStats.machineTicks();
    boolean statementsCounted = db.resetStatements();
    double pgCpuStart = ProcStats.treeCpuSeconds(db.pid());
    double benchCpuStart = benchCpuSeconds();
    try (Sampler sampler = new Sampler(db, Duration.ofMillis(250), () -> fleet)) {
      long start = System.currentTimeMillis();
      Chaos chaos =
          chaosMode
              ? new Chaos(
                  fleet,
                  name -> WorkerJvm.start(name, launch),
                  db,
                  o.killEvery(),
                  Duration.ofMillis(Math.max(15_000, o.killEvery().toMillis() * 3 / 2)),
                  o.seed())
              : null;
      int created = app.enqueueAll(requests, 4);
      log(created + " solves enqueued in " + (System.currentTimeMillis() - start) + " ms");
      boolean timedOut = !awaitAllFinal(sampler, o.solves(), start, o.timeout());
      long end = System.currentTimeMillis();
      Chaos.Events events = Chaos.Events.none();
      if (chaos != null) {
        chaos.close();
        events = chaos.events();
      }
      fleet.forEach(WorkerJvm::sample);
      long[] machineEnd = ProcStats.machineTicks();
      double pgCpu = ProcStats.treeCpuSeconds(db.pid()) - pgCpuStart;
      long statements = statementsCounted ? db.statements() : -1;
      if (statementsCounted) {
        log("statements most often run:");
        db.topStatements(25).forEach(line -> log("  " + line));
      }
      double benchCpu = benchCpuSeconds() - benchCpuStart;
      SimulatorStats stats = sim.stats();
      List<SimulatorProbe.TaskView> tasks = SimulatorProbe.tasks(sim);
      Map<String, String> settings = new LinkedHashMap<>();
      for (String s : List.of("fsync", "synchronous_commit", "full_page_writes")) {
        settings.put(s, db.setting(s));
      }
      try (Connection c = db.connect()) {
        List<Rows.Solve> solves = Rows.solves(c);
        List<Rows.Poll> polls = Rows.polls(c);
        List<Double> handoffs = Rows.handoffSeconds(c);
        long jobs = Rows.jobrunrJobs(c);
        List<Rows.JobHistory> permanent = Rows.permanentJobs(c);
        List<Double> enqueueToSubmit = probeEnqueueToSubmit(o, label, app, c);
        fleet.forEach(WorkerJvm::close);
        List<RunData.Node> nodes =
            fleet.stream()
                .map(
                    w ->
                        new RunData.Node(
                            w.name(),
                            w.sample().cpuSeconds(),
                            w.sample().peakRssMiB(),
                            w.aliveSeconds(),
                            w.killed()))
                .toList();
        double busy =
            machineEnd[1] > machineStart[1]
                ? (double) (machineEnd[0] - machineStart[0]) / (machineEnd[1] - machineStart[1])
                : Double.NaN;
        return new RunData(
            o,
            label,
            start,
            end,
            timedOut,
            stats,
            tasks,
            solves,
            polls,
            handoffs,
            enqueueToSubmit,
            jobs,
            statements,
            permanent,
            sampler.samples(),
            nodes,
            pgCpu,
            benchCpu,
            busy,
            events,
            faultCounter == null ? 0 : faultCounter.lostResponses(),
            settings);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot read the run's rows", e);
      }
    }
  }

  /** Probe solves, enqueued one at a time after the run while every slot is free. */
  static final int PROBES = 20;

  /**
   * Enqueue → in.php with a free slot: the run itself enqueues everything at once, so its solves
   * mostly wait for a slot. After it, {@link #PROBES} solves of the mix's first type are enqueued
   * one at a time (the next 100 ms after the previous one was submitted) and their {@code
   * created_at} → {@code submitted_at} is measured. They are not counted in any other figure (read
   * after them).
   */
  private static List<Double> probeEnqueueToSubmit(
      BenchOptions o, String label, AppNode app, Connection c) throws SQLException {
    String prefix =
        "probe-"
            + label.replaceAll("[^a-zA-Z0-9-]", "-")
            + "-"
            + Long.toString(System.currentTimeMillis(), 36)
            + "-";
    CaptchaType type = o.mix().draw(1, o.seed()).get(0);
    for (int i = 0; i < PROBES; i++) {
      String key = prefix + i;
      app.enqueue(new AppNode.Request(key, type, false));
      long deadline = System.currentTimeMillis() + 5_000;
      while (!Rows.submitted(c, key) && System.currentTimeMillis() < deadline) {
        ProcStats.pause(Duration.ofMillis(10));
      }
      ProcStats.pause(Duration.ofMillis(100));
    }
    return Rows.enqueueToSubmitSeconds(c, prefix);
  }

  /** Waits until every solve ended (printing progress); false on timeout. */
  private static boolean awaitAllFinal(Sampler sampler, int n, long start, Duration timeout) {
    long deadline = start + timeout.toMillis();
    long lastPrint = start;
    while (System.currentTimeMillis() < deadline) {
      Sampler.Sample s = sampler.latest();
      long now = System.currentTimeMillis();
      if (s != null && s.atMillis() > start && s.solved() + s.failed() >= n) {
        log("all " + n + " solves ended after " + (now - start) / 1000.0 + " s");
        return true;
      }
      if (now - lastPrint >= 10_000 && s != null) {
        lastPrint = now;
        log(
            String.format(
                "t=%ds solved %d failed %d, slots held %d, backlog %d",
                (now - start) / 1000, s.solved(), s.failed(), s.slotsHeld(), s.backlog()));
      }
      ProcStats.pause(Duration.ofMillis(200));
    }
    log("TIMEOUT after " + timeout + ": not every solve ended");
    return false;
  }

  /** N requests with the mix; in chaos mode a few are rejected permanently by the provider. */
  static List<AppNode.Request> requests(BenchOptions o, String label) {
    List<CaptchaType> types = o.mix().draw(o.solves(), o.seed());
    int permanent =
        o.mode() == BenchOptions.Mode.CHAOS ? Math.min(o.permanentSolves(), o.solves()) : 0;
    List<AppNode.Request> out = new ArrayList<>(types.size());
    int stride = permanent == 0 ? Integer.MAX_VALUE : Math.max(1, types.size() / permanent);
    int flagged = 0;
    String run =
        label.replaceAll("[^a-zA-Z0-9-]", "-")
            + "-"
            + Long.toString(System.currentTimeMillis(), 36);
    for (int i = 0; i < types.size(); i++) {
      CaptchaType type = types.get(i);
      boolean p = flagged < permanent && i % stride == stride / 2 && type != CaptchaType.IMAGE;
      if (p) {
        flagged++;
      }
      out.add(new AppNode.Request(run + "-" + i + (p ? "-permanent" : ""), type, p));
    }
    return out;
  }

  /** 10 % by default, spread over transport faults, a slow reply and lost in.php responses. */
  static Map<Fault, Double> faults(double rate) {
    Map<Fault, Double> f = new LinkedHashMap<>();
    f.put(Fault.HTML_502, rate * 0.3);
    f.put(Fault.PLAIN_TEXT, rate * 0.2);
    f.put(Fault.SLOW, rate * 0.2);
    f.put(Fault.SERVER_ERROR, rate * 0.1);
    f.put(Fault.RESET, rate * 0.1);
    f.put(Fault.LOST_RESPONSE, rate * 0.1);
    return f;
  }

  /**
   * The worker jar, or null to start workers from this JVM's class path. From the bench's own jar
   * the worker jar is needed; from a class path of several entries (tests, an IDE) the workers use
   * that class path, so they run exactly the worker classes the app node runs (same migrations).
   */
  static Path workerJar(BenchOptions o) {
    if (o.workerJar() != null) {
      if (!Files.isRegularFile(o.workerJar())) {
        throw new IllegalArgumentException("--worker-jar " + o.workerJar() + " does not exist");
      }
      return o.workerJar();
    }
    String classPath = System.getProperty("java.class.path");
    if (classPath.contains(java.io.File.pathSeparator)) {
      return null;
    }
    for (String candidate :
        List.of(
            "worker/target/captchajobs-worker.jar", "../worker/target/captchajobs-worker.jar")) {
      Path p = Path.of(candidate);
      if (Files.isRegularFile(p)) {
        return p.toAbsolutePath();
      }
    }
    throw new IllegalStateException(
        "worker/target/captchajobs-worker.jar not found: run from the"
            + " project root after ./mvnw -pl bench -am package, or pass --worker-jar");
  }

  private static double benchCpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1e9;
  }

  static void log(String line) {
    System.out.println("[bench] " + line);
  }
}

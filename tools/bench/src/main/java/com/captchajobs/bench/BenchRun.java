package com.captchajobs.bench;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.SimulatorStats;
import com.captchajobs.simulator.TaskRecord;
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
            .seed(o.seed())
            .taskTtl(taskTtl(o));
    if (o.pushFaults().any()) {
      simBuilder
          .pingbackDrop(o.pushFaults().drop())
          .pingbackDuplicate(o.pushFaults().duplicate())
          .pingbackDelay(o.pushFaults().delay());
    }
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
        CaptchaAiSimulator backup = backupSimulator(o);
        Database db =
            o.jdbcUrl() == null ? Database.embedded(chaos) : Database.external(o.jdbcUrl())) {
      log(
          "PostgreSQL at "
              + db.jdbcUrl().replaceAll("\\?.*", "")
              + (db.restartable() ? " (embedded)" : "")
              + (db.canCutOff() ? "; nodes through the bench's proxy" : ""));
      String secret = o.push() ? pingbackSecret() : null;
      Path logs = logDir(label);
      try (AppSide app = appNode(o, db, sim, secret, logs)) {
        Map<String, String> props = new LinkedHashMap<>(o.workerProps());
        Map<String, String> env = new LinkedHashMap<>();
        if (backup != null) {
          // a --worker-prop for one of these wins, as for the push properties
          o.backup().workerProps(backup.baseUrl()).forEach(props::putIfAbsent);
          env.put(BackupPlan.KEY_ENV, BackupPlan.API_KEY);
          log(
              "backup provider at "
                  + backup.baseUrl()
                  + ": "
                  + o.backup().threads()
                  + " threads for the fleet (plan "
                  + o.backup().planThreads()
                  + "), prices "
                  + (o.backup().pricesPer1000().isEmpty()
                      ? "none"
                      : BackupPlan.prices(o.backup().pricesPer1000()))
                  + ", daily budget "
                  + (o.backup().dailyBudget() == null
                      ? "none"
                      : o.backup().dailyBudget().toPlainString()));
        }
        if (secret != null) {
          // as the sandbox does: every in.php carries a pingback URL under the app node's endpoint
          props.putIfAbsent("captchaai.pingback-url", app.pingbackUrl());
          props.putIfAbsent("captchaai.pingback-secret", secret);
          log("push on: pingbacks to " + app.pingbackUrl() + " (polling as the fallback)");
        } else {
          log("push off: polling only");
        }
        WorkerJvm.Launch launch =
            new WorkerJvm.Launch(
                workerJar(o),
                List.of(),
                db.nodeJdbcUrl(),
                sim.baseUrl(),
                API_KEY,
                o.threads(),
                o.workerCount(),
                o.poolSize(),
                o.workerHeap(),
                Map.copyOf(props),
                logs,
                env);
        if (o.workerCds()) {
          launch = WorkerCds.prepare(launch, logs.resolveSibling(logs.getFileName() + "-cds"));
          log("workers start from the extracted jar with a class-data archive (--worker-cds)");
        }
        for (int i = 0; i < o.workers(); i++) {
          fleet.add(WorkerJvm.start("bench-w" + i, launch));
        }
        fleet.forEach(w -> w.awaitUp(Duration.ofSeconds(300)));
        log(fleet.size() + " worker JVM(s) UP");
        return drive(o, label, sim, backup, db, app, fleet, launch);
      } finally {
        fleet.forEach(WorkerJvm::close);
      }
    }
  }

  /**
   * The backup provider of {@code --backup-threads}: a second simulator named {@value
   * BackupPlan#NAME} with its own key and seed, the primary's time scale and solve times, faults
   * and push faults (the provider outage is the primary's only); null without one.
   */
  private static CaptchaAiSimulator backupSimulator(BenchOptions o) {
    if (!o.backup().configured()) {
      return null;
    }
    CaptchaAiSimulator.Builder b =
        CaptchaAiSimulator.builder()
            .name(BackupPlan.NAME)
            .account(BackupPlan.API_KEY, o.backup().keyPlan())
            .timeScale(o.timeScale())
            .seed(o.seed() + 1)
            .taskTtl(taskTtl(o));
    if (o.pushFaults().any()) {
      b.pingbackDrop(o.pushFaults().drop())
          .pingbackDuplicate(o.pushFaults().duplicate())
          .pingbackDelay(o.pushFaults().delay());
    }
    if (o.faultRate() > 0) {
      faults(o.faultRate()).forEach(b::fault);
    }
    return b.build().start();
  }

  /** The figures read every task record at the end: none may be forgotten before. */
  private static Duration taskTtl(BenchOptions o) {
    return Duration.ofMinutes(15).compareTo(o.timeout().plusMinutes(15)) > 0
        ? Duration.ofMinutes(15)
        : o.timeout().plusMinutes(15);
  }

  /**
   * The app node: in vip mode the real one ({@link RestAppNode}, its own JVM, enqueued to over
   * REST); otherwise this JVM's ({@link AppNode}, the Java API).
   */
  private static AppSide appNode(
      BenchOptions o, Database db, CaptchaAiSimulator sim, String secret, Path logs) {
    if (o.mode() != BenchOptions.Mode.VIP) {
      return AppNode.start(db.nodeJdbcUrl(), sim.baseUrl(), o.threads(), secret, sim::nowMillis);
    }
    log("app node: java -jar " + o.appJarOrDefault() + " (REST, its own JVM)");
    return RestAppNode.start(
        new RestAppNode.Launch(
            o.appJarOrDefault(),
            db.nodeJdbcUrl(),
            "1g",
            APP_POOL_SIZE,
            2 * o.solves() + PROBES,
            secret,
            logs),
        sim::nowMillis);
  }

  /** The REST app node's connection pool: more than the enqueue connections. */
  static final int APP_POOL_SIZE = 20;

  /** The run's worker log folder, emptied of an earlier run's logs (their task ids would mix). */
  private static Path logDir(String label) {
    Path dir = Path.of("target", "bench-logs", label.replaceAll("[^a-zA-Z0-9-]+", "-"));
    try {
      Files.createDirectories(dir);
      try (var logs = Files.list(dir)) {
        for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
          Files.delete(log);
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot prepare " + dir, e);
    }
    return dir;
  }

  /** A fleet secret for one run (the engine wants at least 32 characters). */
  private static String pingbackSecret() {
    byte[] b = new byte[24];
    new java.security.SecureRandom().nextBytes(b);
    return java.util.HexFormat.of().formatHex(b);
  }

  private static RunData drive(
      BenchOptions o,
      String label,
      CaptchaAiSimulator sim,
      CaptchaAiSimulator backup,
      Database db,
      AppSide app,
      List<WorkerJvm> fleet,
      WorkerJvm.Launch launch) {
    boolean chaosMode = o.mode() == BenchOptions.Mode.CHAOS;
    List<AppNode.Request> requests = requests(o, label);
    long[] machineStart = ProcStats.machineTicks();
    boolean statementsCounted = db.resetStatements();
    double pgCpuStart = ProcStats.treeCpuSeconds(db.pid());
    double benchCpuStart = benchCpuSeconds();
    try (Sampler sampler = new Sampler(db, Duration.ofMillis(250), () -> fleet, sim::nowMillis)) {
      long start = sampler.now();
      Chaos chaos =
          chaosMode
              ? new Chaos(
                  fleet,
                  name -> WorkerJvm.start(name, launch),
                  db,
                  sim,
                  Chaos.Schedule.of(o),
                  o.seed())
              : null;
      boolean timedOut;
      List<Chaos.Kill> kills = new java.util.concurrent.CopyOnWriteArrayList<>();
      int connections = o.mode() == BenchOptions.Mode.VIP ? BenchOptions.VIP_CONNECTIONS : 4;
      double enqueueSeconds = Double.NaN;
      if (chaos == null) {
        int created = app.enqueueAll(requests, connections);
        enqueueSeconds = (sampler.now() - start) / 1000.0;
        log(
            created
                + " solves enqueued in "
                + (sampler.now() - start)
                + " ms over "
                + connections
                + " connection(s)");
        Thread killer =
            o.killAfterSolves() > 0 ? killAfter(o.killAfterSolves(), fleet, sampler, kills) : null;
        timedOut = !awaitAllFinal(sampler, o.solves(), start, o.timeout());
        if (killer != null) {
          killer.interrupt();
        }
      } else {
        timedOut =
            !enqueueWindowed(app, requests, sampler, 4 * o.threads(), start, o.timeout())
                || !awaitAllFinal(sampler, o.solves(), start, o.timeout());
      }
      long end = sampler.now();
      Chaos.Events events =
          kills.isEmpty()
              ? Chaos.Events.none()
              : new Chaos.Events(
                  List.copyOf(kills),
                  List.of(),
                  List.of(),
                  List.of(
                      "kill -9 of "
                          + kills.get(0).worker()
                          + " once "
                          + o.killAfterSolves()
                          + " solves ended, no replacement"));
      if (chaos != null) {
        chaos.close();
        events = chaos.events();
      }
      List<Rows.Unfinished> stuck = settle(db, o.threads());
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
      List<TaskRecord> tasks = sim.tasks();
      List<RequestRecord> simRequests = sim.requests();
      List<PushRecord> pushes = sim.pushes();
      RunData.Backup backupRecords =
          backup == null
              ? RunData.Backup.NONE
              : new RunData.Backup(
                  o.backup(),
                  backup.stats(),
                  backup.tasks(),
                  backup.requests(),
                  backup.pushes(),
                  backup.spend());
      Map<String, Long> enqueued = app.enqueuedAt();
      Map<String, Long> sent = app.sentAt();
      ProcStats.Reading appJvm = app.pid() == null ? null : ProcStats.read(app.pid());
      Map<String, Long> enqueuedAt = new LinkedHashMap<>();
      Map<String, String> labels = new LinkedHashMap<>();
      long permanentRequests = 0;
      for (AppNode.Request r : requests) {
        String subject = TypeMix.subject(r.type(), r.businessKey());
        labels.put(subject, r.businessKey());
        if (r.permanent()) {
          permanentRequests++;
        } else if (enqueued.containsKey(r.businessKey())) {
          enqueuedAt.put(subject, enqueued.get(r.businessKey()));
        }
      }
      Map<String, AppNode.Request> byKey = new java.util.HashMap<>();
      requests.forEach(r -> byKey.put(r.businessKey(), r));
      Map<String, Long> sentAt = new LinkedHashMap<>();
      sent.forEach(
          (key, at) -> {
            AppNode.Request r = byKey.get(key);
            if (r != null) {
              sentAt.put(TypeMix.subject(r.type(), key), at);
            }
          });
      RunData.Enqueues enqueues =
          new RunData.Enqueues(
              connections,
              enqueueSeconds,
              java.util.Collections.unmodifiableMap(sentAt),
              appJvm == null ? Double.NaN : appJvm.cpuSeconds(),
              appJvm == null ? Double.NaN : appJvm.peakRssMiB());
      Map<String, String> settings = new LinkedHashMap<>();
      for (String s : List.of("fsync", "synchronous_commit", "full_page_writes")) {
        settings.put(s, db.setting(s));
      }
      try (Connection c = db.connect()) {
        List<Rows.Solve> solves = Rows.solves(c);
        List<Rows.Poll> polls = Rows.polls(c);
        List<Double> handoffs = Rows.handoffSeconds(c);
        Rows.slowHandoffs(c, start).forEach(l -> System.out.println("[bench] slow hand-off " + l));
        long jobs = Rows.jobrunrJobs(c);
        List<Rows.JobHistory> permanent = Rows.permanentJobs(c);
        List<Double> enqueueToSubmit = probeEnqueueToSubmit(o, label, app, sim);
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
            simRequests,
            pushes,
            Map.copyOf(enqueuedAt),
            Map.copyOf(labels),
            permanentRequests,
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
            stuck,
            settings,
            enqueues,
            backupRecords);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot read the run's rows", e);
      }
    }
  }

  /**
   * {@code --kill-after-solves}: kills the first worker with kill -9 once {@code n} solves ended
   * (as the sampler reads them), without a replacement, and records when on the simulator's clock.
   */
  private static Thread killAfter(
      int n, List<WorkerJvm> fleet, Sampler sampler, List<Chaos.Kill> kills) {
    Thread t =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                Sampler.Sample s = sampler.latest();
                if (s != null && s.solved() + s.failed() >= n) {
                  WorkerJvm victim = fleet.get(0);
                  victim.kill();
                  kills.add(new Chaos.Kill(sampler.now(), victim.name()));
                  log(
                      "kill -9 "
                          + victim.name()
                          + " after "
                          + (s.solved() + s.failed())
                          + " solves");
                  return;
                }
                ProcStats.pause(Duration.ofMillis(50));
              }
            },
            "bench-kill-after");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Probe solves, enqueued one at a time after the run while every slot is free. */
  static final int PROBES = 20;

  /**
   * Enqueue → in.php with a free slot: the run itself enqueues everything at once, so its solves
   * mostly wait for a slot. After it, {@link #PROBES} solves of the mix's first type are enqueued
   * one at a time (the next 100 ms after the provider accepted the previous one, and once fewer
   * than C earlier probes wait for their answer, so that a slot is free), each measured from just
   * before the harness's enqueue call to the provider's acceptance of its task (the simulator's
   * task record). They are not counted in any other figure (read after them).
   */
  private static List<Double> probeEnqueueToSubmit(
      BenchOptions o, String label, AppSide app, CaptchaAiSimulator sim) {
    String prefix =
        "probe-"
            + label.replaceAll("[^a-zA-Z0-9-]", "-")
            + "-"
            + Long.toString(System.currentTimeMillis(), 36)
            + "-";
    CaptchaType type = o.mix().draw(1, o.seed()).get(0);
    List<Double> out = new ArrayList<>();
    List<String> earlier = new ArrayList<>();
    for (int i = 0; i < PROBES; i++) {
      // a slot must be free: fewer than C earlier probes whose answer the provider has not yet
      // delivered (a get that fetched it; a push only rings for that get)
      long freeBy = System.currentTimeMillis() + 30_000;
      while (undelivered(sim, earlier) >= o.threads() && System.currentTimeMillis() < freeBy) {
        ProcStats.pause(Duration.ofMillis(20));
      }
      String key = prefix + i;
      String subject = TypeMix.subject(type, key);
      long before = sim.nowMillis(); // the clock the task's acceptance is stamped with
      app.enqueue(new AppNode.Request(key, type, false));
      long deadline = System.currentTimeMillis() + 5_000;
      Long accepted = null;
      while (accepted == null && System.currentTimeMillis() < deadline) {
        accepted =
            sim.tasks().stream()
                .filter(t -> subject.equals(t.subject()))
                .map(TaskRecord::acceptedAt)
                .findFirst()
                .orElse(null);
        if (accepted == null) {
          ProcStats.pause(Duration.ofMillis(10));
        }
      }
      if (accepted != null) {
        out.add((accepted - before) / 1000.0);
      }
      earlier.add(subject);
      ProcStats.pause(Duration.ofMillis(100));
    }
    return out;
  }

  /** Of these subjects, the ones whose answer the provider has not delivered yet. */
  private static long undelivered(CaptchaAiSimulator sim, List<String> subjects) {
    if (subjects.isEmpty()) {
      return 0;
    }
    java.util.Set<String> delivered =
        sim.tasks().stream()
            .filter(TaskRecord::fetched)
            .map(TaskRecord::subject)
            .collect(java.util.stream.Collectors.toSet());
    return subjects.stream().filter(s -> !delivered.contains(s)).count();
  }

  /**
   * Chaos mode's arrival: solves are enqueued as earlier ones end, at most {@code window}
   * unfinished at a time, so that none waits for a slot anywhere near the solve deadline (10 min by
   * default) however long the run (with enough solves every outage meets solves in flight; the
   * report gives those in flight when each began). An enqueue that fails (the database outage) is
   * tried again: the business key makes it idempotent. False on timeout.
   */
  private static boolean enqueueWindowed(
      AppSide app,
      List<AppNode.Request> requests,
      Sampler sampler,
      int window,
      long start,
      Duration timeout) {
    long deadline = start + timeout.toMillis();
    int enqueued = 0;
    long lastPrint = start;
    for (AppNode.Request r : requests) {
      while (true) {
        Sampler.Sample s = sampler.latest();
        int ended = s == null ? 0 : s.solved() + s.failed();
        if (enqueued - ended < window) {
          break;
        }
        if (sampler.now() > deadline) {
          log("TIMEOUT after " + timeout + ": " + enqueued + " solves enqueued");
          return false;
        }
        if (sampler.now() - lastPrint >= 10_000 && s != null) {
          lastPrint = sampler.now();
          log(
              String.format(
                  "t=%ds enqueued %d, solved %d failed %d, slots held %d, backlog %d",
                  (lastPrint - start) / 1000,
                  enqueued,
                  s.solved(),
                  s.failed(),
                  s.slotsHeld(),
                  s.backlog()));
        }
        ProcStats.pause(Duration.ofMillis(100));
      }
      while (true) {
        try {
          app.enqueue(r);
          break;
        } catch (RuntimeException e) {
          if (sampler.now() > deadline) {
            log("TIMEOUT after " + timeout + ": " + enqueued + " solves enqueued");
            return false;
          }
          log("enqueue of " + r.businessKey() + " failed, trying again: " + e);
          ProcStats.pause(Duration.ofSeconds(1));
        }
      }
      enqueued++;
    }
    log(enqueued + " solves enqueued after " + (sampler.now() - start) / 1000 + " s");
    return true;
  }

  /**
   * Solves stuck once the run has settled: unfinished and without a live job in every read over
   * {@link #SETTLE} (longer than {@code captchaai.stuck-after} plus a repair pass), waiting solves
   * left out while every slot is held. Nothing to wait for when every solve ended.
   */
  private static List<Rows.Unfinished> settle(Database db, int cap) {
    try (Connection c = db.connect()) {
      List<Rows.Unfinished> stuck = Rows.withoutLiveJob(c, cap);
      long until = System.currentTimeMillis() + SETTLE.toMillis();
      while (!stuck.isEmpty() && System.currentTimeMillis() < until) {
        log(stuck.size() + " unfinished solve(s) without a live job; reading again");
        ProcStats.pause(Duration.ofSeconds(5));
        List<String> now = Rows.withoutLiveJob(c, cap).stream().map(Rows.Unfinished::id).toList();
        stuck = stuck.stream().filter(u -> now.contains(u.id())).toList();
      }
      stuck.forEach(u -> log("STUCK: " + u));
      return stuck;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the unfinished solves", e);
    }
  }

  /** How long an unfinished solve must stay without a live job to count as stuck. */
  static final Duration SETTLE = Duration.ofSeconds(45);

  /** Waits until every solve ended (printing progress); false on timeout. */
  private static boolean awaitAllFinal(Sampler sampler, int n, long start, Duration timeout) {
    long deadline = start + timeout.toMillis();
    long lastPrint = start;
    while (sampler.now() < deadline) {
      Sampler.Sample s = sampler.latest();
      long now = sampler.now();
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
            "worker/target/captchajobs-worker.jar", "../../worker/target/captchajobs-worker.jar")) {
      Path p = Path.of(candidate);
      if (Files.isRegularFile(p)) {
        return p.toAbsolutePath();
      }
    }
    throw new IllegalStateException(
        "worker/target/captchajobs-worker.jar not found: run from the"
            + " project root after ./mvnw -pl tools/bench -am package, or pass --worker-jar");
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

package com.captchajobs.simulator;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local CaptchaAI ({@code in.php} / {@code res.php}) on a real socket, for tests and load runs.
 *
 * <pre>{@code
 * try (CaptchaAiSimulator sim = CaptchaAiSimulator.builder()
 *         .account(CaptchaAiSimulator.SANDBOX_KEY, 2)
 *         .timeScale(0.05)
 *         .build()
 *         .start()) {
 *   String url = sim.baseUrl() + "/in.php?key=...&method=userrecaptcha&googlekey=...&pageurl=...";
 *   ...
 *   assertThat(sim.stats().maxInFlight()).isLessThanOrEqualTo(2);
 * }
 * }</pre>
 *
 * <p>Behaviour follows docs/captchaai-contract.md ("What the simulator reproduces"): key checks
 * first, per-method validation codes, a per-key thread cap from acceptance until the answer is
 * ready, scripted outcomes by magic values (a {@code pageurl} containing {@code unsolvable} or
 * {@code unsolvable-once}, proxy hosts {@code bad.proxy} and {@code dead.proxy}, site key {@code
 * invalid}) and injectable faults.
 */
public final class CaptchaAiSimulator implements AutoCloseable {
  /** The key of the default account (5 threads). */
  public static final String SANDBOX_KEY = "sandbox0sandbox0sandbox0sandbox0";

  private static final Logger log = LoggerFactory.getLogger(CaptchaAiSimulator.class);

  private final SimulatorConfig config;
  private final ScheduledExecutorService timer;
  private final SimulatorEngine engine;
  private HttpServer server;
  private ExecutorService httpExecutor;
  private ApiHandler apiHandler;
  private volatile boolean closed;

  private CaptchaAiSimulator(SimulatorConfig config) {
    this.config = config;
    ScheduledThreadPoolExecutor scheduler =
        new ScheduledThreadPoolExecutor(2, daemonThreads("captchaai-sim-timer-"));
    scheduler.setRemoveOnCancelPolicy(true);
    this.timer = scheduler;
    this.engine = new SimulatorEngine(config, timer);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Binds the HTTP server; returns this. */
  public synchronized CaptchaAiSimulator start() {
    if (server != null || closed) {
      throw new IllegalStateException(
          "CaptchaAiSimulator can be started once; it is " + (closed ? "closed" : "running"));
    }
    // Without TCP_NODELAY the JDK server's separate header and body writes meet delayed ACKs: ~40
    // ms
    // per call. The JDK reads this property once, when its first HttpServer is created.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
    try {
      server = HttpServer.create(new InetSocketAddress(config.address(), config.port()), 1024);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot bind the CaptchaAI simulator to " + config.address() + ":" + config.port(), e);
    }
    httpExecutor = Executors.newCachedThreadPool(daemonThreads("captchaai-sim-http-"));
    server.setExecutor(httpExecutor);
    apiHandler = new ApiHandler(engine, timer, config.slowDelay());
    server.createContext("/in.php", apiHandler);
    server.createContext("/res.php", apiHandler);
    server.createContext("/", new AdminHandler(engine));
    server.start();
    log.info(
        "CaptchaAI simulator {} listening on {} with {} key(s)",
        config.name(),
        baseUrl(),
        config.accounts().size());
    return this;
  }

  /**
   * For example {@code http://127.0.0.1:43121}, without a trailing slash; a wildcard bind address
   * is reported as {@code 127.0.0.1}.
   */
  public String baseUrl() {
    InetAddress bound = server().getAddress().getAddress();
    String host = bound.isAnyLocalAddress() ? "127.0.0.1" : bound.getHostAddress();
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
  }

  public int port() {
    return server().getAddress().getPort();
  }

  /** A snapshot over all keys; calls with an unknown key count here only. */
  public SimulatorStats stats() {
    return engine.stats();
  }

  /** A snapshot for one key (empty for a key the simulator does not know). */
  public SimulatorStats stats(String key) {
    return engine.stats(key);
  }

  /**
   * The tasks accepted since start or {@link #reset} (minus those past the task TTL), in id order:
   * when each was accepted, started and ready, how often it was polled and whether its answer was
   * fetched.
   */
  public List<TaskRecord> tasks() {
    return engine.tasks();
  }

  /** The tasks of one key ({@link #tasks()}); empty for a key the simulator does not know. */
  public List<TaskRecord> tasks(String key) {
    return engine.tasks(key);
  }

  /**
   * The provider this simulator plays ({@link Builder#name}), for logs and reports; default {@value
   * Builder#DEFAULT_NAME}.
   */
  public String name() {
    return config.name();
  }

  /**
   * What every key spent since start or {@link #reset}, one row per key, UTC day and captcha type,
   * sorted by key fingerprint, day and type. Only priced types ({@link KeyPlan#price}) show: a key
   * billed by threads has no rows. Also {@code GET /spend}.
   */
  public List<SpendRecord> spend() {
    return engine.spend();
  }

  /** One key's rows of {@link #spend()}, by day and type; also {@code GET /spend?key=}. */
  public List<SpendRecord> spend(String key) {
    return engine.spend(key);
  }

  /** What one key spent on the UTC {@code day} over all types; 0 when billed by threads. */
  public BigDecimal spentOn(String key, LocalDate day) {
    return engine.spentOn(key, Objects.requireNonNull(day, "day"));
  }

  /**
   * Sets a key's balance at runtime, e.g. to 0 to make it answer {@code ERROR_ZERO_BALANCE} to
   * every submit, or higher again to top it up ({@link KeyPlan#balance}). {@link #reset} restores
   * the plan's balance.
   */
  public void setBalance(String key, BigDecimal amount) {
    engine.setBalance(key, amount);
  }

  /**
   * Now on the simulator's clock, the one every record ({@link #tasks()}, {@link #requests()},
   * {@link #pushes()}) is stamped with: epoch milliseconds that never go backwards. A harness that
   * compares its own moments with those records takes them from here, not from {@link
   * System#currentTimeMillis()}, which may step or drift away from it during a run.
   */
  public long nowMillis() {
    return engine.nowMillis();
  }

  /**
   * Every pingback handled since start or {@link #reset}: sent, sent twice or dropped, with when
   * its answer was ready, when it was sent and the receiver's status.
   */
  public List<PushRecord> pushes() {
    return engine.pushes();
  }

  /**
   * Every {@code reportbad} and {@code reportgood} the service recorded since start or {@link
   * #reset}, in order, one per call it answered {@code OK_REPORT_RECORDED} (a task reported twice
   * shows twice).
   */
  public List<ReportRecord> reports() {
    return engine.reports();
  }

  /** The reports of one task ({@link #reports()}), e.g. to assert that it got exactly one. */
  public List<ReportRecord> reports(long taskId) {
    return engine.reports().stream().filter(r -> r.taskId() == taskId).toList();
  }

  /**
   * Every in.php and res.php request since start or {@link #reset}, in the order handled (the first
   * two million): when, which endpoint and action, the key's fingerprint, the task id it created or
   * asked about, its outcome and the fault injected into it. The bench's figures are counted from
   * this log and {@link #tasks()}, not from what the client recorded.
   */
  public List<RequestRecord> requests() {
    return engine.requests();
  }

  /**
   * Clears stats, tasks and spend (accounts and their plans stay; balances go back to the plan's),
   * plus scripted state ({@code unsolvable-once}), IP bans and pending {@link #injectNext} faults,
   * and re-seeds all randomness.
   */
  public void reset() {
    engine.reset();
  }

  /**
   * Makes the next call to {@code endpoint} fail with {@code fault}. Injections queue: two calls
   * fault the next two requests. {@link Fault#LOST_RESPONSE} is for {@link Endpoint#IN} only.
   */
  public void injectNext(Endpoint endpoint, Fault fault) {
    engine.injectNext(
        Objects.requireNonNull(endpoint, "endpoint"), Objects.requireNonNull(fault, "fault"));
  }

  /**
   * A provider outage: from now on every call to every endpoint fails with {@code fault} (e.g.
   * {@link Fault#HTML_502}) until {@link #endOutage()}. Tasks accepted before go on being solved
   * meanwhile, as at the real provider; their answers wait to be fetched.
   */
  public void startOutage(Fault fault) {
    engine.startOutage(Objects.requireNonNull(fault, "fault"));
  }

  /**
   * While on, every {@code reportbad} and {@code reportgood} is recorded by the service ({@link
   * #reports()}) and then answered with an HTML 502, as a gateway in front of a provider that did
   * its work answers when the provider's reply is lost; the request log shows {@link
   * Fault#LOST_RESPONSE}. An injected fault or an outage still comes first.
   */
  public void reportAnswersLost(boolean lost) {
    engine.reportAnswersLost(lost);
  }

  /** Ends {@link #startOutage}: calls are answered normally again. */
  public void endOutage() {
    engine.endOutage();
  }

  /** Changes (or adds) a key's plan at runtime; 0 threads makes it ERROR_KEY_DOES_NOT_EXIST. */
  public void setThreads(String key, int threads) {
    engine.setThreads(key, threads);
  }

  /** Stops the server, ending hanging calls; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (apiHandler != null) {
      apiHandler.releaseHanging();
    }
    if (server != null) {
      server.stop(0);
      httpExecutor.shutdownNow();
      log.info("CaptchaAI simulator on port {} stopped", server.getAddress().getPort());
    }
    timer.shutdownNow();
  }

  private HttpServer server() {
    if (server == null) {
      throw new IllegalStateException("CaptchaAiSimulator is not started: call start() first");
    }
    return server;
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Settings for a {@link CaptchaAiSimulator}; every default is listed here. */
  public static final class Builder {
    public static final String DEFAULT_NAME = "captchaai";
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    public static final int DEFAULT_THREADS = 5;
    public static final long DEFAULT_SEED = 1;
    public static final Duration DEFAULT_SLOW_DELAY = Duration.ofSeconds(2);
    public static final Duration DEFAULT_TASK_TTL = Duration.ofMinutes(15);
    public static final int DEFAULT_BAD_KEY_THRESHOLD = 5;
    public static final Duration DEFAULT_BAN_DURATION = Duration.ofMinutes(5);

    private String address = DEFAULT_ADDRESS;
    private int port = 0;
    private String name = DEFAULT_NAME;
    private final Map<String, KeyPlan> accounts = new LinkedHashMap<>();
    private double timeScale = 1.0;
    private final Map<String, SolveTimes.Range> solveTimes = new LinkedHashMap<>();
    private long seed = DEFAULT_SEED;
    private OverCapMode overCapMode = OverCapMode.ZERO_BALANCE;
    private final Map<Fault, Double> faults = new EnumMap<>(Fault.class);
    private Duration slowDelay = DEFAULT_SLOW_DELAY;
    private Duration taskTtl = DEFAULT_TASK_TTL;
    private int badKeyThreshold = DEFAULT_BAD_KEY_THRESHOLD;
    private Duration banDuration = DEFAULT_BAN_DURATION;
    private boolean stringIds = false;
    private double pingbackDrop = 0;
    private double pingbackDuplicate = 0;
    private Duration pingbackDelay = Duration.ZERO;
    private String pingbackMethod = "GET";
    private boolean pingbackRegistration = false;

    private Builder() {}

    /**
     * Share of pingbacks lost on purpose (recorded as {@link PushRecord#DROPPED}, never sent);
     * default 0. Tasks submitted with {@code pingback=<url>} get {@code GET <url>?id=<task
     * id>&code=<answer or error code>} when done.
     */
    public Builder pingbackDrop(double probability) {
      this.pingbackDrop = probability("pingbackDrop", probability);
      return this;
    }

    /** Share of pingbacks sent twice (200 ms apart); default 0. */
    public Builder pingbackDuplicate(double probability) {
      this.pingbackDuplicate = probability("pingbackDuplicate", probability);
      return this;
    }

    /** How long after the answer is ready a pingback is sent; default 0. */
    public Builder pingbackDelay(Duration delay) {
      this.pingbackDelay = nonNegative("pingbackDelay", delay);
      return this;
    }

    /**
     * How a push is sent: {@code GET} (default; {@code GET <url>?id=<task id>&code=<answer>}) or
     * {@code POST} ({@code POST <url>} with the form body {@code id=<task id>&code=<answer>}, as
     * 2captcha documents its pingback).
     */
    public Builder pingbackMethod(String method) {
      if (!"GET".equals(method) && !"POST".equals(method)) {
        throw new IllegalArgumentException("pingbackMethod must be GET or POST, got " + method);
      }
      this.pingbackMethod = method;
      return this;
    }

    /**
     * Whether pushes go only to hosts the account registered first with {@code
     * res.php?action=add_pingback&addr=<host>} (listed by {@code get_pingback}, removed by {@code
     * del_pingback}); default false. A push to an unregistered host is never sent and is recorded
     * as {@link PushRecord#UNREGISTERED}.
     */
    public Builder pingbackRegistration(boolean required) {
      this.pingbackRegistration = required;
      return this;
    }

    private static double probability(String name, double p) {
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException(name + " must be in [0, 1], got " + p);
      }
      return p;
    }

    /** Address to bind; default {@value #DEFAULT_ADDRESS}. */
    public Builder address(String address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /** Port to bind; default 0 = a free port. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be in 0..65535, got " + port);
      }
      this.port = port;
      return this;
    }

    /** Adds a key (32 characters) with its plan's threads; without any, SANDBOX_KEY with 5. */
    public Builder account(String key, int threads) {
      if (threads < 0) {
        throw new IllegalArgumentException("account threads must be >= 0, got " + threads);
      }
      return account(key, KeyPlan.threads(threads));
    }

    /**
     * Adds a key (32 characters) with its whole plan: threads, prices per 1,000 solves by type,
     * balance and over-cap answer ({@link KeyPlan}). Adding the same key again replaces its plan.
     */
    public Builder account(String key, KeyPlan plan) {
      if (key == null || key.length() != 32) {
        throw new IllegalArgumentException(
            "account key must be 32 characters, got " + (key == null ? "null" : key.length()));
      }
      accounts.put(key, Objects.requireNonNull(plan, "plan"));
      return this;
    }

    /**
     * The provider this simulator plays, shown in its log lines ({@code captchaai}, {@code backup},
     * ...); default {@value #DEFAULT_NAME}. Several simulators in one JVM (a primary and a backup,
     * each on its own port) share one clock, so their records can be merged.
     */
    public Builder name(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank, got " + name);
      }
      this.name = name.strip();
      return this;
    }

    /** Multiplies every solve time; default 1.0. */
    public Builder timeScale(double timeScale) {
      if (!(timeScale >= 0) || Double.isInfinite(timeScale)) {
        throw new IllegalArgumentException(
            "timeScale must be a finite number >= 0, got " + timeScale);
      }
      this.timeScale = timeScale;
      return this;
    }

    /**
     * Solve time for a plain method name ({@code userrecaptcha}, {@code turnstile}, {@code
     * cloudflare_challenge}, {@code base64}, {@code post}, {@code geetest}), uniform in [min, max],
     * before the time scale; replaces the defaults of all variants of that method.
     */
    public Builder solveTime(String method, Duration min, Duration max) {
      if (!SolveTimes.DEFAULTS.containsKey(method)) {
        throw new IllegalArgumentException(
            "solveTime method must be one of userrecaptcha, turnstile,"
                + " cloudflare_challenge, base64, post, geetest; got "
                + method);
      }
      solveTimes.put(method, SolveTimes.Range.of(min, max));
      return this;
    }

    /** Seed of all randomness (solve times, answers, ids, faults); default 1. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** What in.php does when all threads are busy; default ZERO_BALANCE. */
    public Builder overCapMode(OverCapMode mode) {
      this.overCapMode = Objects.requireNonNull(mode, "overCapMode");
      return this;
    }

    /** Probability of {@code fault} per call (seeded); repeatable; the sum must not exceed 1. */
    public Builder fault(Fault fault, double probability) {
      Objects.requireNonNull(fault, "fault");
      if (!(probability >= 0 && probability <= 1)) {
        throw new IllegalArgumentException(
            "fault probability must be in [0, 1], got " + probability);
      }
      faults.put(fault, probability);
      double sum = faults.values().stream().mapToDouble(Double::doubleValue).sum();
      if (sum > 1.0 + 1e-9) {
        throw new IllegalArgumentException(
            "fault probabilities must add up to at most 1, got " + sum);
      }
      return this;
    }

    /** Latency of {@link Fault#SLOW}; default 2 s. */
    public Builder slowDelay(Duration slowDelay) {
      this.slowDelay = nonNegative("slowDelay", slowDelay);
      return this;
    }

    /** How long a task id stays known after acceptance; default 15 min. */
    public Builder taskTtl(Duration taskTtl) {
      this.taskTtl = nonNegative("taskTtl", taskTtl);
      return this;
    }

    /**
     * Bad-key requests from one IP before IP_BANNED, and how long the ban lasts; default 5, 5 min.
     */
    public Builder ipBan(int badKeyThreshold, Duration banDuration) {
      if (badKeyThreshold < 1) {
        throw new IllegalArgumentException(
            "ipBan badKeyThreshold must be >= 1, got " + badKeyThreshold);
      }
      this.badKeyThreshold = badKeyThreshold;
      this.banDuration = nonNegative("ipBan banDuration", banDuration);
      return this;
    }

    /** Whether JSON task ids are always strings; default false (numbers for userrecaptcha). */
    public Builder stringIds(boolean stringIds) {
      this.stringIds = stringIds;
      return this;
    }

    public CaptchaAiSimulator build() {
      Map<String, KeyPlan> keys = new LinkedHashMap<>(accounts);
      if (keys.isEmpty()) {
        keys.put(SANDBOX_KEY, KeyPlan.threads(DEFAULT_THREADS));
      }
      return new CaptchaAiSimulator(
          new SimulatorConfig(
              name,
              address,
              port,
              Map.copyOf(keys),
              timeScale,
              Map.copyOf(solveTimes),
              seed,
              overCapMode,
              new EnumMap<>(faults),
              slowDelay,
              taskTtl,
              badKeyThreshold,
              banDuration,
              stringIds,
              new PushSender.PushFaults(
                  pingbackDrop,
                  pingbackDuplicate,
                  pingbackDelay,
                  "POST".equals(pingbackMethod),
                  pingbackRegistration)));
    }

    private static Duration nonNegative(String name, Duration value) {
      if (value == null || value.isNegative()) {
        throw new IllegalArgumentException(name + " must be a non-negative duration, got " + value);
      }
      return value;
    }
  }
}

package com.captchajobs.simulator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The simulated service behind the HTTP layer: keys, tasks, thread caps, scripted outcomes and
 * stats. Every method is thread-safe; per-key state is guarded by the {@link Account}'s lock.
 */
final class SimulatorEngine {
  /** A pageurl containing this makes every task for it end ERROR_CAPTCHA_UNSOLVABLE. */
  static final String UNSOLVABLE = "unsolvable";

  /** A pageurl containing this makes only its first accepted task unsolvable. */
  static final String UNSOLVABLE_ONCE = "unsolvable-once";

  /** A proxy on this host makes the task end ERROR_PROXY_CONNECTION_FAILED. */
  static final String DEAD_PROXY_HOST = "dead.proxy";

  private static final long FIRST_ID = 73_000_000_000L;

  private final SimulatorConfig config;
  private final SimClock clock = new SimClock();
  private final ScheduledExecutorService timer;
  private final Map<String, Account> accounts = new ConcurrentHashMap<>();
  private final Map<Long, Task> tasks = new ConcurrentHashMap<>();
  private final Map<String, Boolean> unsolvableOnceUsed = new ConcurrentHashMap<>();
  private final AtomicLong nextId;
  private final Random solveRandom;
  private final Random answerRandom;
  private final Random faultRandom;
  private final SolveTimes solveTimes;
  private final AnswerFactory answers;
  private final FaultPlan faults;
  private final IpBans ipBans;
  private final Random pushRandom;
  private final PushSender pushes;
  private final long ttlMillis;

  /** At most this many requests are kept in the request log; later ones are counted only. */
  static final int REQUEST_LOG_LIMIT = 2_000_000;

  private final List<RequestRecord> requestLog = new ArrayList<>(); // guarded by itself
  private long requestsNotLogged; // guarded by requestLog
  private KeyStats unknownKeyStats; // guarded by this
  private final List<ReportRecord> reports = new ArrayList<>(); // guarded by itself

  SimulatorEngine(SimulatorConfig config, ScheduledExecutorService timer) {
    this.config = config;
    this.timer = timer;
    this.solveRandom = new Random();
    this.answerRandom = new Random();
    this.faultRandom = new Random();
    this.pushRandom = new Random();
    reseed();
    this.nextId =
        new AtomicLong(FIRST_ID + Math.floorMod(config.seed() * 7919L, 1_000_000L) * 1000);
    this.solveTimes = new SolveTimes(config.solveTimes(), config.timeScale());
    this.answers = new AnswerFactory(answerRandom);
    this.faults = new FaultPlan(config.faultProbabilities(), faultRandom);
    this.ipBans = new IpBans(config.badKeyThreshold(), config.banDuration().toMillis());
    this.pushes = new PushSender(config.pushFaults(), pushRandom, timer, clock);
    this.ttlMillis = config.taskTtl().toMillis();
    this.unknownKeyStats = new KeyStats(clock.nowMillis());
    config.accounts().forEach(this::addAccount);
    long sweepEvery = Math.max(1000, Math.min(60_000, ttlMillis / 4));
    timer.scheduleWithFixedDelay(this::sweepExpired, sweepEvery, sweepEvery, TimeUnit.MILLISECONDS);
  }

  // ---- in.php ----

  ApiAnswer submit(RequestParams p, String clientIp) {
    Account account = accounts.get(p.key());
    try {
      checkAccess(p, clientIp, account);
      return admit(account, SubmitValidator.validate(p), p.nonBlank("pingback"));
    } catch (ApiError e) {
      recordRejected(account, e.code);
      return ApiAnswer.error(e.code);
    }
  }

  private ApiAnswer admit(Account account, Submission submission, String pingbackUrl) {
    Task task =
        account.withSettled(
            now -> {
              KeyBilling billing = account.billing();
              billing.checkFunds(submission.type());
              OverCapMode whenFull = billing.overCapMode(config.overCapMode());
              if (whenFull != OverCapMode.QUEUE && !account.hasFreeThread()) {
                String code =
                    whenFull == OverCapMode.NO_SLOT_AVAILABLE
                        ? "ERROR_NO_SLOT_AVAILABLE"
                        : "ERROR_ZERO_BALANCE";
                throw new ApiError(code);
              }
              Task t =
                  new Task(
                      nextId.getAndIncrement(),
                      account,
                      submission,
                      scriptedOutcome(submission),
                      answers.answerFor(submission, now),
                      now,
                      solveTimes.draw(submission, solveRandom),
                      pingbackUrl,
                      billing.charge(submission.type(), now));
              tasks.put(t.id, t);
              account.admit(t, now, whenFull == OverCapMode.QUEUE);
              account.stats().accept(submission);
              return t;
            });
    boolean numeric = !config.stringIds() && "userrecaptcha".equals(submission.method());
    return ApiAnswer.ok(numeric ? (Object) task.id : String.valueOf(task.id));
  }

  private Outcome scriptedOutcome(Submission s) {
    String pageUrl = s.pageUrl() == null ? "" : s.pageUrl();
    if (pageUrl.contains(UNSOLVABLE_ONCE)) {
      return unsolvableOnceUsed.putIfAbsent(pageUrl, Boolean.TRUE) == null
          ? Outcome.UNSOLVABLE
          : Outcome.SOLVED;
    }
    if (pageUrl.contains(UNSOLVABLE)) {
      return Outcome.UNSOLVABLE;
    }
    if (DEAD_PROXY_HOST.equals(s.proxyHost())) {
      return Outcome.PROXY_FAILED;
    }
    return Outcome.SOLVED;
  }

  /** A task submitted with a pingback URL is done: its answer or error code is pushed. */
  private void push(Task task) {
    boolean error = task.outcome != Outcome.SOLVED;
    String code = error ? task.outcome.errorCode : task.answer.request();
    boolean registered = task.account.pingbackHosts().contains(hostOf(task.pingbackUrl));
    pushes.ready(task.id, task.pingbackUrl, task.readyAt, code, error, registered);
  }

  /**
   * The addresses an account registered for pushes, as 2captcha documents them: {@code
   * add_pingback&addr=} adds one (a host, or a URL whose host is taken), {@code get_pingback} lists
   * them ({@code OK|a,b}; {@code OK} when none), {@code del_pingback&addr=} removes one ({@code
   * addr=all}: every one).
   */
  private static ApiAnswer pingbackAddresses(Account account, RequestParams p) {
    Set<String> hosts = account.pingbackHosts();
    String action = p.nonBlank("action");
    if ("get_pingback".equals(action)) {
      List<String> sorted = new ArrayList<>(hosts);
      Collections.sort(sorted);
      return sorted.isEmpty() ? ApiAnswer.value("OK") : ApiAnswer.ok(String.join(",", sorted));
    }
    String addr = p.nonBlank("addr");
    if (addr == null) {
      throw new ApiError("ERROR_BAD_PARAMETERS");
    }
    if ("del_pingback".equals(action) && "all".equalsIgnoreCase(addr)) {
      hosts.clear();
    } else if ("del_pingback".equals(action)) {
      hosts.remove(hostOf(addr));
    } else {
      hosts.add(hostOf(addr));
    }
    return ApiAnswer.value("OK");
  }

  /** The host of an address or URL, lower-case, without scheme, port or path. */
  static String hostOf(String addr) {
    String s = addr.strip().toLowerCase(java.util.Locale.ROOT);
    int scheme = s.indexOf("://");
    if (scheme >= 0) {
      s = s.substring(scheme + 3);
    }
    int end = 0;
    if (s.startsWith("[")) {
      end = Math.max(s.indexOf(']') + 1, 1);
    } else {
      while (end < s.length() && "/:?#".indexOf(s.charAt(end)) < 0) {
        end++;
      }
    }
    return s.substring(0, end);
  }

  /** Every push handled since start or reset, in the order they completed. */
  List<PushRecord> pushes() {
    return pushes.records();
  }

  // ---- the request log ----

  long nowMillis() {
    return clock.nowMillis();
  }

  /** Adds one request to the log (the first {@link #REQUEST_LOG_LIMIT} since start or reset). */
  void logRequest(RequestRecord r) {
    synchronized (requestLog) {
      if (requestLog.size() < REQUEST_LOG_LIMIT) {
        requestLog.add(r);
      } else {
        requestsNotLogged++;
      }
    }
  }

  /** Every logged request since start or reset, in the order they were logged. */
  List<RequestRecord> requests() {
    synchronized (requestLog) {
      return List.copyOf(requestLog);
    }
  }

  /** Requests handled beyond {@link #REQUEST_LOG_LIMIT}, not in {@link #requests()}. */
  long requestsNotLogged() {
    synchronized (requestLog) {
      return requestsNotLogged;
    }
  }

  // ---- res.php ----

  ApiAnswer result(RequestParams p, String clientIp) {
    Account account = accounts.get(p.key());
    String action = p.nonBlank("action");
    if ("get".equals(action)) {
      countResCall(account);
    }
    try {
      checkAccess(p, clientIp, account);
      if (action == null) {
        throw new ApiError("ERROR_EMPTY_ACTION");
      }
      return switch (action) {
        case "add_pingback", "get_pingback", "del_pingback" -> pingbackAddresses(account, p);
        case "get" -> get(account, p);
        case "threadsinfo" -> threadsInfo(account);
        case "getbalance" ->
            account.withSettled(now -> ApiAnswer.value(account.billing().balanceText()));
        case "reportbad", "reportgood" -> report(account, p);
        default -> throw new ApiError("ERROR_BAD_PARAMETERS");
      };
    } catch (ApiError e) {
      return ApiAnswer.error(e.code);
    }
  }

  private ApiAnswer get(Account account, RequestParams p) {
    Task task = findTask(account, p);
    return account.withSettled(
        now -> {
          if (isExpired(task, now)) {
            tasks.remove(task.id);
            throw new ApiError("ERROR_WRONG_CAPTCHA_ID");
          }
          task.polls++;
          if (!task.settled) {
            return ApiAnswer.error("CAPCHA_NOT_READY");
          }
          if (task.outcome != Outcome.SOLVED) {
            return ApiAnswer.error(task.outcome.errorCode);
          }
          KeyStats stats = account.stats();
          stats.pollsOnSolved++;
          if (!task.fetched) {
            task.fetched = true;
            stats.fetchLagsMillis.add(now - task.readyAt);
          }
          return ApiAnswer.solved(task.answer);
        });
  }

  private ApiAnswer threadsInfo(Account account) {
    return account.withSettled(
        now -> {
          Map<String, Object> info = new LinkedHashMap<>();
          info.put("threads", String.valueOf(account.threads()));
          info.put("working_threads", account.stats().inFlight);
          return ApiAnswer.bareObject(info);
        });
  }

  private ApiAnswer report(Account account, RequestParams p) {
    Task task = findTask(account, p);
    long now = clock.nowMillis();
    if (isExpired(task, now)) {
      throw new ApiError("ERROR_WRONG_CAPTCHA_ID");
    }
    synchronized (reports) {
      reports.add(new ReportRecord(task.id, p.nonBlank("action"), now));
    }
    return ApiAnswer.value("OK_REPORT_RECORDED");
  }

  /** The reports recorded since start or reset, in the order recorded. */
  List<ReportRecord> reports() {
    synchronized (reports) {
      return List.copyOf(reports);
    }
  }

  private Task findTask(Account account, RequestParams p) {
    String id = p.nonBlank("id");
    if (id == null || !id.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new ApiError("ERROR_WRONG_ID_FORMAT");
    }
    Task task = id.length() > 18 ? null : tasks.get(Long.parseLong(id));
    if (task == null || task.account != account) {
      throw new ApiError("ERROR_WRONG_CAPTCHA_ID");
    }
    return task;
  }

  private boolean isExpired(Task task, long now) {
    return now - task.acceptedAt >= ttlMillis;
  }

  // ---- shared checks and bookkeeping ----

  /** Key checks come first on both endpoints, before any parameter (docs/captchaai-contract.md). */
  private void checkAccess(RequestParams p, String clientIp, Account account) {
    long now = clock.nowMillis();
    if (ipBans.isBanned(clientIp, now)) {
      throw new ApiError("IP_BANNED");
    }
    if (p.key().length() != 32) {
      ipBans.badKey(clientIp, now);
      throw new ApiError("ERROR_WRONG_USER_KEY");
    }
    if (account == null || account.threads() == 0) {
      ipBans.badKey(clientIp, now);
      throw new ApiError("ERROR_KEY_DOES_NOT_EXIST");
    }
  }

  /** Books a call answered by a fault that never reached the service. */
  void recordFaulted(Endpoint endpoint, RequestParams p, Fault fault) {
    Account account = accounts.get(p.key());
    if (endpoint == Endpoint.RES) {
      if ("get".equals(p.nonBlank("action"))) {
        countResCall(account);
      }
      return;
    }
    recordRejected(account, faultCode(fault));
  }

  static String faultCode(Fault fault) {
    return switch (fault) {
      case HTML_502, LOST_RESPONSE -> "HTTP_502";
      case HTML_500 -> "HTTP_500";
      case SERVER_ERROR -> "ERROR_SERVER_ERROR";
      case INTERNAL_SERVER_ERROR -> "ERROR_INTERNAL_SERVER_ERROR";
      case RATE_LIMIT -> "ERROR_TOO_MUCH_REQUESTS";
      default -> fault.name();
    };
  }

  private void recordRejected(Account account, String code) {
    if (account != null) {
      account.withSettled(
          now -> {
            account.stats().reject(code);
            return null;
          });
    } else {
      synchronized (this) {
        unknownKeyStats.reject(code);
      }
    }
  }

  private void countResCall(Account account) {
    if (account != null) {
      account.withSettled(now -> account.stats().resCalls++);
    } else {
      synchronized (this) {
        unknownKeyStats.resCalls++;
      }
    }
  }

  Fault nextFault(Endpoint endpoint) {
    return faults.next(endpoint);
  }

  private volatile boolean reportAnswersLost;

  /**
   * Whether a report is recorded and then answered with an HTML 502 ({@link Fault#LOST_RESPONSE}).
   */
  boolean reportAnswersLost() {
    return reportAnswersLost;
  }

  void reportAnswersLost(boolean lost) {
    reportAnswersLost = lost;
  }

  void startOutage(Fault fault) {
    faults.startOutage(fault);
  }

  void endOutage() {
    faults.endOutage();
  }

  void injectNext(Endpoint endpoint, Fault fault) {
    faults.injectNext(endpoint, fault);
  }

  // ---- control ----

  void setThreads(String key, int threads) {
    if (key == null || key.length() != 32) {
      throw new IllegalArgumentException(
          "key must be 32 characters, got " + (key == null ? "null" : key.length()));
    }
    if (threads < 0) {
      throw new IllegalArgumentException("threads must be >= 0, got " + threads);
    }
    accounts.computeIfAbsent(key, k -> newAccount(k, KeyPlan.threads(0))).setThreads(threads);
  }

  private void addAccount(String key, KeyPlan plan) {
    accounts.put(key, newAccount(key, plan));
  }

  private Account newAccount(String key, KeyPlan plan) {
    return new Account(key, plan, clock, this::wakeAt, this::push);
  }

  /** Sets a key's balance at runtime (0 = every submit refused with ERROR_ZERO_BALANCE). */
  void setBalance(String key, java.math.BigDecimal amount) {
    Account account = knownAccount(key);
    account.withSettled(
        now -> {
          account.billing().setBalance(amount);
          return null;
        });
  }

  private Account knownAccount(String key) {
    Account account = key == null ? null : accounts.get(key);
    if (account == null) {
      throw new IllegalArgumentException(
          "unknown key " + ApiHandler.fingerprint(key) + ": add it with account(key, plan)");
    }
    return account;
  }

  /** Every key's spend rows, by key fingerprint, day and type. */
  List<SpendRecord> spend() {
    List<SpendRecord> rows = new ArrayList<>();
    accounts.values().forEach(a -> rows.addAll(spendOf(a)));
    rows.sort(
        java.util.Comparator.comparing(SpendRecord::keyFingerprint)
            .thenComparing(SpendRecord::day)
            .thenComparing(SpendRecord::type));
    return rows;
  }

  /** One key's spend rows (none for a key the simulator does not know). */
  List<SpendRecord> spend(String key) {
    Account account = key == null ? null : accounts.get(key);
    return account == null ? List.of() : spendOf(account);
  }

  /** What one key spent on a UTC day over all types (0 for a key the simulator does not know). */
  java.math.BigDecimal spentOn(String key, java.time.LocalDate day) {
    Account account = key == null ? null : accounts.get(key);
    return account == null
        ? java.math.BigDecimal.ZERO
        : account.withSettled(now -> account.billing().spentOn(day));
  }

  private static List<SpendRecord> spendOf(Account a) {
    return a.withSettled(now -> a.billing().spend(ApiHandler.fingerprint(a.key)));
  }

  private void wakeAt(Account account, long epochMillis) {
    long delay = Math.max(0, epochMillis - clock.nowMillis()) + 1;
    try {
      timer.schedule(account::settleNow, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // the simulator is closing; requests settle lazily anyway
    }
  }

  private void sweepExpired() {
    long now = clock.nowMillis();
    tasks.values().removeIf(t -> isExpired(t, now));
  }

  SimulatorStats stats() {
    List<KeyStats.View> views = new ArrayList<>();
    accounts.values().forEach(a -> views.add(a.withSettled(now -> a.stats().view(now))));
    synchronized (this) {
      views.add(unknownKeyStats.view(clock.nowMillis()));
    }
    return StatsSnapshots.combine(views);
  }

  SimulatorStats stats(String key) {
    Account account = accounts.get(key);
    if (account == null) {
      long now = clock.nowMillis();
      return StatsSnapshots.combine(List.of(new KeyStats(now).view(now)));
    }
    KeyStats.View view = account.withSettled(now -> account.stats().view(now));
    return StatsSnapshots.combine(List.of(view));
  }

  /**
   * Every task the simulator still keeps (expired ones are dropped after the task TTL), in id
   * order; each read under its account's lock.
   */
  List<TaskRecord> tasks() {
    return tasksOf(null);
  }

  /** The tasks of one key ({@link #tasks()}); none for a key the simulator does not know. */
  List<TaskRecord> tasks(String key) {
    Account account = key == null ? null : accounts.get(key);
    return account == null ? List.of() : tasksOf(account);
  }

  private List<TaskRecord> tasksOf(Account only) {
    List<TaskRecord> out = new ArrayList<>();
    for (Task t : List.copyOf(tasks.values())) {
      if (only != null && t.account != only) {
        continue;
      }
      out.add(t.account.withSettled(now -> TaskRecord.of(t)));
    }
    out.sort(java.util.Comparator.comparingLong(TaskRecord::id));
    return out;
  }

  /** Clears stats, tasks, scripted state, IP bans and pending injections; re-seeds randomness. */
  void reset() {
    tasks.clear();
    accounts.values().forEach(Account::reset);
    unsolvableOnceUsed.clear();
    ipBans.clear();
    faults.clearInjected();
    pushes.clear();
    synchronized (reports) {
      reports.clear();
    }
    synchronized (requestLog) {
      requestLog.clear();
      requestsNotLogged = 0;
    }
    reseed();
    synchronized (this) {
      unknownKeyStats = new KeyStats(clock.nowMillis());
    }
  }

  private void reseed() {
    solveRandom.setSeed(config.seed());
    answerRandom.setSeed(config.seed() * 31 + 1);
    faultRandom.setSeed(config.seed() * 31 + 2);
    synchronized (pushRandom) {
      pushRandom.setSeed(config.seed() * 31 + 3);
    }
  }
}

package com.captchajobs.core.internal.gate;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.db.Db;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The gate's slots of the providers beside the primary (docs/providers.md), and the routing rule
 * that picks whose slot a waiting solve takes: the primary's first, then a pool provider's, then a
 * backup's, but a backup's only for a solve that waited its {@code overflowAfter}, or any solve
 * while the primary is down ({@link #primaryDown}), and only within its daily budget. While the
 * primary is down its slots are not handed out at all: solves wait for a backup's, until one
 * probing solve is handed a primary slot {@link #PROBE_AFTER} after its last failure (the others
 * stay away from the primary while that solve's in.php is under way).
 *
 * <p>Each pair is one statement ({@code FOR UPDATE SKIP LOCKED}), so every provider's cap is exact
 * across the fleet. A provider with a budget is handed slots under an advisory lock of its own, so
 * that two nodes never both spend its last cent: its spend of the day plus the price of every solve
 * holding its slot without a task yet, plus this solve's price, stays within the budget.
 */
public final class ProviderLanes {

  /** The primary's name: its slots and its solves. */
  public static final String PRIMARY = "captchaai";

  /**
   * The primary is down once this many of its calls in a row across the fleet (in.php, res.php,
   * threadsinfo) met server trouble: with 10 % of calls failing at random, five in a row come once
   * in 100,000 starts...
   */
  public static final int DOWN_FAILURES = 5;

  /**
   * ...over at least this long without a real answer (a burst of faults within a moment is not an
   * outage; after server trouble each worker probes the primary over this span, so that an outage
   * shows however few calls the fleet makes)...
   */
  public static final Duration DOWN_AFTER = Duration.ofMillis(500);

  /** ...and its last such failure is younger than this: else one solve probes it again. */
  public static final Duration PROBE_AFTER = Duration.ofSeconds(10);

  /**
   * The primary's failing run as {@link #primaryDown} judges it, on a {@code provider_health} row
   * {@code h}; its parameters: {@link #DOWN_FAILURES}, {@link #DOWN_AFTER} in ms.
   */
  private static final String FAILING =
      "h.name = 'captchaai' AND h.failures >= ?"
          + " AND h.failing_since <= now() - ? * interval '1 millisecond'";

  /**
   * A provider beside the primary as the gate routes to it.
   *
   * @param backup whether it takes only what the primary cannot
   * @param overflowAfter a backup takes a solve that waited this long
   * @param pricesOfOne the price of one solve by type (absent: billed by threads)
   * @param dailyBudget the configured budget per UTC day, or null
   */
  public record Lane(
      String name,
      boolean backup,
      int capacity,
      String keyFingerprint,
      Duration overflowAfter,
      Map<CaptchaType, BigDecimal> pricesOfOne,
      BigDecimal dailyBudget) {}

  private final Db db;
  private final List<Lane> lanes;
  private final String primaryFingerprint;
  private final String node;
  private final Duration lease;
  private final Supplier<UUID> serverId;

  ProviderLanes(
      Db db,
      List<Lane> lanes,
      String primaryFingerprint,
      String node,
      Duration lease,
      Supplier<UUID> serverId) {
    this.db = db;
    this.lanes = List.copyOf(lanes);
    this.primaryFingerprint = primaryFingerprint;
    this.node = node;
    this.lease = lease;
    this.serverId = serverId;
  }

  /** Stores each lane's cap, role, key fingerprint, prices and budget, with one row per slot. */
  void resize() {
    for (Lane l : lanes) {
      db.update(
          "INSERT INTO captchajobs.gate_slot (provider, slot_no, freed_at) SELECT ?, g, now()"
              + " FROM generate_series(0, ? - 1) g ON CONFLICT DO NOTHING",
          l.name(),
          l.capacity());
      String prices =
          l.pricesOfOne().entrySet().stream()
              .map(e -> "\"" + e.getKey().name() + "\":" + e.getValue().toPlainString())
              .collect(Collectors.joining(",", "{", "}"));
      db.update(
          "INSERT INTO captchajobs.gate_provider AS p (name, role, capacity, key_fingerprint,"
              + " prices, daily_budget) VALUES (?, ?, ?, ?, ?::jsonb, ?) ON CONFLICT (name) DO UPDATE"
              + " SET role = EXCLUDED.role, capacity = EXCLUDED.capacity,"
              + " key_fingerprint = EXCLUDED.key_fingerprint, prices = EXCLUDED.prices,"
              + " daily_budget = EXCLUDED.daily_budget, updated_at = now()",
          l.name(),
          l.backup() ? "BACKUP" : "POOL",
          l.capacity(),
          l.keyFingerprint(),
          prices,
          l.dailyBudget());
    }
  }

  /** The primary's row in {@code gate_provider}: what operators read (its cap is the gate's). */
  static void registerPrimary(Db db, int capacity, String keyFingerprint) {
    db.update(
        "INSERT INTO captchajobs.gate_provider AS p (name, role, capacity, key_fingerprint)"
            + " VALUES (?, 'PRIMARY', ?, ?) ON CONFLICT (name) DO UPDATE SET"
            + " capacity = EXCLUDED.capacity, key_fingerprint = EXCLUDED.key_fingerprint,"
            + " updated_at = now()",
        PRIMARY,
        capacity,
        keyFingerprint);
  }

  /**
   * Whether the primary is down, as every node sees it: its breaker is open, or its last {@link
   * #DOWN_FAILURES} calls or more across the fleet met only server trouble over at least {@link
   * #DOWN_AFTER}, the last of them younger than {@link #PROBE_AFTER}. A solve that holds a primary
   * slot when it is down gives the slot back before calling in.php.
   */
  public boolean primaryDown() {
    return down(false);
  }

  /**
   * {@link #primaryDown}, and, with {@code orProbing}, while its failing run has grown older than
   * {@link #PROBE_AFTER}, as long as a solve handed a primary slot since its last failure has no
   * task yet: that one probes it, the rest keep to the backups until it answers.
   */
  private boolean down(boolean orProbing) {
    return db.queryOne(
            "SELECT EXISTS (SELECT 1 FROM captchajobs.breaker WHERE key_fingerprint = ? AND open)"
                + " OR EXISTS (SELECT 1 FROM captchajobs.provider_health h WHERE "
                + FAILING
                + " AND (h.last_failure_at > now() - ? * interval '1 millisecond'"
                + " OR ? AND EXISTS (SELECT 1 FROM captchajobs.gate_slot g"
                + "   JOIN captchajobs.solve s ON s.id = g.solve_id WHERE g.provider = 'captchaai'"
                + "   AND NOT g.phantom AND g.lease_until > now() AND g.acquired_at > h.last_failure_at"
                + "   AND s.task_id IS NULL)))",
            rs -> rs.getBoolean(1),
            primaryFingerprint,
            DOWN_FAILURES,
            DOWN_AFTER.toMillis(),
            PROBE_AFTER.toMillis(),
            orProbing)
        .orElse(false);
  }

  /**
   * Records what a provider's call came to: {@code serverTrouble} (a transport error, an HTML 5xx
   * page, a server error code) starts or extends its failing run by one; a real answer ends it.
   */
  public void answered(String provider, boolean serverTrouble) {
    if (serverTrouble) {
      db.update(
          "INSERT INTO captchajobs.provider_health AS h (name, failing_since, last_failure_at,"
              + " failures) VALUES (?, now(), now(), 1) ON CONFLICT (name) DO UPDATE SET"
              + " failing_since = COALESCE(h.failing_since, now()), last_failure_at = now(),"
              + " failures = CASE WHEN h.failing_since IS NULL THEN 1 ELSE h.failures + 1 END",
          provider);
    } else {
      db.update(
          "UPDATE captchajobs.provider_health SET failing_since = NULL, last_failure_at = NULL,"
              + " failures = 0 WHERE name = ? AND failing_since IS NOT NULL",
          provider);
    }
  }

  /** The provider whose slot the solve holds, or empty. */
  public Optional<String> providerOf(UUID solveId) {
    return db.queryOne(
        "SELECT provider FROM captchajobs.gate_slot WHERE solve_id = ? AND lease_until > now()",
        rs -> rs.getString(1),
        solveId);
  }

  /** Hands one free slot to the next waiting solve, by the routing rule; see FleetGate. */
  Optional<FleetGate.Handoff> dispatchOne(UUID carrier, Duration submitLock) {
    boolean down = down(true);
    List<Lane> order = new ArrayList<>();
    if (!down) {
      order.add(null); // the primary
    }
    lanes.stream().filter(l -> !l.backup()).forEach(order::add);
    lanes.stream().filter(Lane::backup).forEach(order::add);
    for (Lane lane : order) {
      Optional<FleetGate.Handoff> h =
          lane == null
              ? pair(PRIMARY, Duration.ZERO, carrier, submitLock, false)
              : lane.dailyBudget() == null && lane.pricesOfOne().isEmpty()
                  ? pair(lane.name(), waited(lane, down), carrier, submitLock, false)
                  : db.underLock(
                      "provider-budget:" + lane.name(),
                      tx ->
                          pairIn(tx, lane.name(), waited(lane, down), carrier, submitLock).stream()
                              .findFirst());
      if (h.isPresent()) {
        return h;
      }
    }
    return Optional.empty();
  }

  private static Duration waited(Lane lane, boolean primaryDown) {
    return lane.backup() && !primaryDown ? lane.overflowAfter() : Duration.ZERO;
  }

  private Optional<FleetGate.Handoff> pair(
      String provider, Duration waited, UUID carrier, Duration submitLock, boolean budget) {
    return db.queryOne(
        pairSql(!PRIMARY.equals(provider), budget),
        FleetGate::handoff,
        args(provider, waited, carrier, submitLock));
  }

  private List<FleetGate.Handoff> pairIn(
      Db.Tx tx, String provider, Duration waited, UUID carrier, Duration submitLock) {
    return tx.query(
        pairSql(true, true), FleetGate::handoff, args(provider, waited, carrier, submitLock));
  }

  private Object[] args(String provider, Duration waited, UUID carrier, Duration submitLock) {
    return args(provider, waited, node, serverId.get(), lease, carrier, submitLock);
  }

  /** The parameters of {@link #pairSql}, in order. */
  static Object[] args(
      String provider,
      Duration waited,
      String node,
      UUID serverId,
      Duration lease,
      UUID carrier,
      Duration submitLock) {
    return new Object[] {
      provider,
      waited.toMillis(),
      waited.toMillis(),
      node,
      serverId,
      lease.toMillis(),
      carrier,
      carrier,
      submitLock.toMillis()
    };
  }

  /**
   * One pair of a free slot of one provider and the next waiting solve (that waited long enough),
   * taken in one statement; the solve is QUEUED again and names the provider (unless it still has a
   * task, whose provider it keeps). The primary's cap is {@code gate.capacity}, another's its
   * {@code gate_provider} row, whose breaker must be closed and, with {@code budget}, whose budget
   * must allow the solve's price.
   */
  static String pairSql(boolean extra, boolean budget) {
    String cap =
        extra
            ? "(SELECT p.capacity FROM captchajobs.gate_provider p WHERE p.name = gate_slot.provider"
                + "   AND NOT EXISTS (SELECT 1 FROM captchajobs.breaker b"
                + "     WHERE b.key_fingerprint = p.key_fingerprint AND b.open))"
            : "(SELECT capacity FROM captchajobs.gate WHERE id = 1)";
    String withinBudget =
        !budget
            ? ""
            : " AND (SELECT NULLIF(COALESCE(p.operator_budget, p.daily_budget), 0) IS NULL"
                + "   OR COALESCE((SELECT sum(amount) FROM captchajobs.provider_spend sp"
                + "     WHERE sp.provider = p.name AND sp.day = (now() AT TIME ZONE 'UTC')::date), 0)"
                + "   + COALESCE((SELECT sum((p.prices->>s2.type)::numeric) FROM captchajobs.gate_slot g2"
                + "     JOIN captchajobs.solve s2 ON s2.id = g2.solve_id WHERE g2.provider = p.name"
                + "     AND g2.lease_until > now() AND s2.task_id IS NULL), 0)"
                + "   + COALESCE((p.prices->>next.type)::numeric, 0)"
                + "   <= NULLIF(COALESCE(p.operator_budget, p.daily_budget), 0)"
                + "   FROM captchajobs.gate_provider p WHERE p.name = free.provider)";
    return "WITH free AS (SELECT provider, slot_no, freed_at FROM captchajobs.gate_slot"
        + "   WHERE provider = ? AND (solve_id IS NULL OR lease_until < now())"
        + "     AND slot_no < "
        + cap
        + "   ORDER BY slot_no LIMIT 1 FOR UPDATE SKIP LOCKED),"
        + " next AS (SELECT id, type, waiting_since FROM captchajobs.solve"
        + "   WHERE status = 'WAITING_FOR_THREAD' AND (not_before IS NULL OR not_before <= now())"
        + "     AND (?::bigint = 0 OR COALESCE(thread_wait_since, waiting_since)"
        + "       <= now() - ? * interval '1 millisecond')"
        + "     AND NOT EXISTS (SELECT 1 FROM captchajobs.gate_slot h WHERE h.solve_id = captchajobs.solve.id)"
        + "   ORDER BY priority DESC, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED),"
        + " taken AS (UPDATE captchajobs.gate_slot g SET solve_id = next.id, node = ?, phantom = false,"
        + "   server_id = ?, acquired_at = now(), lease_until = now() + ? * interval '1 millisecond'"
        + "   FROM free, next WHERE g.provider = free.provider AND g.slot_no = free.slot_no"
        + withinBudget
        + "   RETURNING g.solve_id, g.provider, greatest(free.freed_at, next.waiting_since) AS freed_at)"
        + " UPDATE captchajobs.solve s SET status = 'QUEUED', not_before = NULL, updated_at = now(),"
        + "   provider = CASE WHEN s.task_id IS NULL THEN taken.provider ELSE s.provider END,"
        + "   job_id = COALESCE(?::uuid, s.job_id),"
        + "   submit_lock_until = CASE WHEN ?::uuid IS NULL THEN s.submit_lock_until"
        + "     ELSE now() + ? * interval '1 millisecond' END"
        + " FROM taken WHERE s.id = taken.solve_id"
        + " RETURNING s.id, s.type, s.business_key, s.thread_waits, taken.freed_at";
  }
}

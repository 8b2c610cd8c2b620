package com.captchajobs.core.internal.gate;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.LivenessLock;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.model.Gate;
import com.captchajobs.core.model.SlotHolder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The fleet-wide cap on solves in flight (invariant 1 of docs/architecture.md): one row per
 * provider thread in {@code captchajobs.gate_slot}, taken with {@code FOR UPDATE SKIP LOCKED}, so
 * that no two holders ever share a slot whatever the number of nodes and worker threads. A slot is
 * held from just before in.php until the answer, a permanent error, or the end of its lease.
 *
 * <p>Waiting solves are not spinning: {@link #dispatch} pairs free slots with the best waiting
 * solves (higher priority first, then oldest) and is called by whoever frees a slot.
 */
public final class FleetGate {

  /**
   * A slot handed to a waiting solve; {@code freedAt} is when the slot was free and the solve
   * waiting, {@code waits} the solve's count of thread waits (names its next submit job).
   */
  public record Handoff(
      UUID solveId, CaptchaType type, String businessKey, int waits, Instant freedAt) {

    /** When the slot was freed (or the solve began to wait, if later); 0 when unknown. */
    public long freedAtEpochMilli() {
      return freedAt == null ? 0 : freedAt.toEpochMilli();
    }
  }

  private final Db db;
  private final PhantomSlots phantomSlots;
  private final Duration lease;
  private final String node;
  private final Supplier<UUID> serverId;
  private final ProviderLanes lanes;
  private final String primaryFingerprint;

  /** A gate of a node without a JobRunr server (an operator's view, a test). */
  public FleetGate(DataSource dataSource, Schema schema, Duration lease, String node) {
    this(dataSource, schema, lease, node, () -> null);
  }

  /**
   * @param serverId the JobRunr server of this node, null until it started: the slots it holds are
   *     reclaimed as soon as JobRunr drops it. The server is started with the jobs that use this
   *     gate, so its id is known only after them.
   */
  public FleetGate(
      DataSource dataSource, Schema schema, Duration lease, String node, Supplier<UUID> serverId) {
    this(dataSource, schema, lease, node, serverId, List.of(), null);
  }

  /**
   * A gate with providers beside the primary ({@code lanes}, routed by {@link ProviderLanes});
   * none: the primary alone, as before.
   */
  public FleetGate(
      DataSource dataSource,
      Schema schema,
      Duration lease,
      String node,
      Supplier<UUID> serverId,
      List<ProviderLanes.Lane> lanes,
      String primaryFingerprint) {
    this.db = new Db(dataSource, schema);
    this.phantomSlots = new PhantomSlots(db);
    this.lease = lease;
    this.node = node;
    this.serverId = Objects.requireNonNull(serverId, "serverId");
    this.primaryFingerprint = primaryFingerprint;
    this.lanes =
        lanes.isEmpty()
            ? null
            : new ProviderLanes(db, lanes, primaryFingerprint, node, lease, serverId);
  }

  /** The providers beside the primary, or null when there are none. */
  public ProviderLanes lanes() {
    return lanes;
  }

  /** Sets the fleet cap and makes sure there is one row per slot. */
  public void resize(int capacity) {
    db.update(
        "INSERT INTO captchajobs.gate_slot (provider, slot_no, freed_at) SELECT 'captchaai', g,"
            + " now() FROM generate_series(0, ? - 1) g ON CONFLICT DO NOTHING",
        capacity);
    db.update("UPDATE captchajobs.gate SET capacity = ? WHERE id = 1", capacity);
    if (primaryFingerprint != null) { // the primary's row, for operators
      ProviderLanes.registerPrimary(db, capacity, primaryFingerprint);
    }
    if (lanes != null) {
      lanes.resize();
    }
  }

  public int capacity() {
    return db.queryOne("SELECT capacity FROM captchajobs.gate WHERE id = 1", rs -> rs.getInt(1))
        .orElse(0);
  }

  /** The primary's slots held now (a lapsed lease does not count; others: ProviderLanes). */
  public int inFlight() {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL"
                + " AND lease_until > now() AND provider = 'captchaai'",
            rs -> rs.getInt(1))
        .orElse(0);
  }

  public int waiting() {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.solve WHERE status = 'WAITING_FOR_THREAD'",
            rs -> rs.getInt(1))
        .orElse(0);
  }

  /**
   * The fleet-wide figures of the gate in one statement, and whether this node is the fleet's
   * reporter of them: the node that holds (or takes, when it is free or lapsed) the reporter lease
   * in {@code captchajobs.gate}. The holder renews it on every reading, so exactly one node reports
   * while it keeps being read at least once per lease.
   */
  public Reading read(Duration reporterLease) {
    return db.queryOne(
            "WITH r AS (UPDATE captchajobs.gate SET reporter = ?,"
                + " reporter_until = now() + make_interval(secs => ?)"
                + " WHERE id = 1 AND (reporter IS NULL OR reporter = ? OR reporter_until < now())"
                + " RETURNING 1)"
                + " SELECT g.capacity,"
                + " (SELECT count(*) FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL"
                + " AND lease_until > now() AND provider = 'captchaai'),"
                + " (SELECT count(*) FROM captchajobs.solve WHERE status = 'WAITING_FOR_THREAD'),"
                + " EXISTS (SELECT 1 FROM r)"
                + " FROM captchajobs.gate g WHERE g.id = 1",
            rs -> new Reading(new Gate(rs.getInt(1), rs.getInt(2), rs.getInt(3)), rs.getBoolean(4)),
            node,
            reporterLease.toMillis() / 1000.0,
            node)
        .orElse(new Reading(new Gate(0, 0, 0), false));
  }

  /**
   * The gate's fleet-wide figures at one instant.
   *
   * @param reporter whether this node holds the reporter lease and so publishes them
   */
  public record Reading(Gate gate, boolean reporter) {}

  /** The slots held now, by slot number. */
  public List<SlotHolder> holders() {
    return db.query(
        "SELECT slot_no, solve_id, node, acquired_at, lease_until, phantom"
            + " FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL AND lease_until > now()"
            + " ORDER BY slot_no",
        rs ->
            new SlotHolder(
                rs.getInt(1),
                rs.getObject(2, UUID.class),
                rs.getString(3),
                Db.instant(rs, "acquired_at"),
                Db.instant(rs, "lease_until"),
                rs.getBoolean(6)));
  }

  /**
   * Hands free slots to waiting solves, one atomic statement per pair, until either runs out. Each
   * returned solve now holds a slot and is QUEUED again: its submit must follow at once.
   */
  public List<Handoff> dispatch() {
    List<Handoff> handed = new ArrayList<>();
    while (true) {
      Optional<Handoff> next = dispatchOne(null, Duration.ZERO);
      if (next.isEmpty()) {
        return handed;
      }
      handed.add(next.get());
    }
  }

  /**
   * Hands one free slot to the next waiting solve, if both exist, for the running job {@code
   * carrier} to submit it: the solve is QUEUED again, its recorded job is the carrier and its
   * submit lock taken for {@code submitLock}, all in the statement that hands the slot over.
   */
  public Optional<Handoff> dispatchTo(UUID carrier, Duration submitLock) {
    return dispatchOne(Objects.requireNonNull(carrier, "carrier"), submitLock);
  }

  /**
   * Hands one free slot to the next waiting solve, if both exist; the solve is QUEUED again and its
   * submit must follow at once (by the carrier, when one is given: see {@link #dispatchTo}).
   */
  private Optional<Handoff> dispatchOne(UUID carrier, Duration submitLock) {
    if (lanes != null) {
      return lanes.dispatchOne(carrier, submitLock);
    }
    return db.queryOne(
        ProviderLanes.pairSql(false, false),
        FleetGate::handoff,
        ProviderLanes.args(
            ProviderLanes.PRIMARY,
            Duration.ZERO,
            node,
            serverId.get(),
            lease,
            carrier,
            submitLock));
  }

  static Handoff handoff(java.sql.ResultSet rs) throws java.sql.SQLException {
    return new Handoff(
        Db.uuid(rs, "id"),
        CaptchaType.valueOf(rs.getString("type")),
        rs.getString("business_key"),
        rs.getInt("thread_waits"),
        Db.instant(rs, "freed_at"));
  }

  /**
   * Confirms that the solve still holds its slot and renews the lease for this node, just before
   * in.php. False when the slot was reclaimed meanwhile: the solve must wait again.
   */
  public boolean confirm(UUID solveId) {
    return db.update(
            "UPDATE captchajobs.gate_slot SET node = ?, server_id = ?,"
                + " lease_until = now() + ? * interval '1 millisecond'"
                + " WHERE solve_id = ? AND lease_until > now()",
            node,
            serverId.get(),
            lease.toMillis(),
            solveId)
        == 1;
  }

  /** Whether the solve holds a slot whose lease has not ended. */
  public boolean holds(UUID solveId) {
    return db.queryOne(
            "SELECT 1 FROM captchajobs.gate_slot WHERE solve_id = ? AND lease_until > now()",
            rs -> true,
            solveId)
        .isPresent();
  }

  /** Frees the solve's slot; idempotent. True when a slot was freed by this call. */
  public boolean release(UUID solveId) {
    return db.update(
            "UPDATE captchajobs.gate_slot SET solve_id = NULL, node = NULL, server_id = NULL,"
                + " acquired_at = NULL, lease_until = NULL, freed_at = now(), phantom = false"
                + " WHERE solve_id = ?",
            solveId)
        == 1;
  }

  /**
   * After an in.php call whose answer was lost (5xx, timeout, reset), the provider may have created
   * the task anyway and be solving it on one of the plan's threads. The slot then stays taken, by a
   * phantom holder, for {@code hold}, so that the fleet never puts more tasks in flight than the
   * cap; the solve itself gives the slot up and submits again later.
   */
  public boolean holdAfterLostSubmit(UUID solveId, Duration hold) {
    return db.update(
            "UPDATE captchajobs.gate_slot SET solve_id = ?, phantom = true, server_id = NULL,"
                + " acquired_at = now(), lease_until = now() + ? * interval '1 millisecond'"
                + " WHERE solve_id = ?",
            UUID.randomUUID(),
            hold.toMillis(),
            solveId)
        == 1;
  }

  /** The phantom holders of this gate's slots, as the repair pass judges them. */
  public PhantomSlots phantomSlots() {
    return phantomSlots;
  }

  /**
   * Which of {@code serverIds} hold their liveness lock now ({@link LivenessLock}): one read of
   * {@code pg_locks} in this database.
   */
  public java.util.Set<UUID> liveServers(java.util.Collection<UUID> serverIds) {
    if (serverIds.isEmpty()) {
      return java.util.Set.of();
    }
    String[] ids = serverIds.stream().map(UUID::toString).toArray(String[]::new);
    return new java.util.HashSet<>(
        db.query(
            "SELECT s FROM unnest(?::text[]) s WHERE EXISTS (SELECT 1 FROM pg_locks l"
                + " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2"
                + " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                + " AND l.classid = CAST(? AS bigint)::oid"
                + " AND l.objid = (hashtext(s)::bigint & 4294967295)::oid)",
            rs -> UUID.fromString(rs.getString(1)),
            ids,
            (long) LivenessLock.SPACE));
  }

  /**
   * Returns leaked slots: leases that ended; slots whose solve is done (a crash between storing the
   * token and releasing); and slots of JobRunr servers that are no longer registered (a crashed
   * node is dropped from {@code cj_jobrunr_backgroundjobservers}) unless their solve was already
   * submitted: that task still runs at the provider, so its slot stays until the answer or the
   * lease. A timed-out task keeps its slot until its lease ends, for the same reason.
   */
  public int reclaim() {
    return db.update(
        "UPDATE captchajobs.gate_slot g SET solve_id = NULL, node = NULL, server_id = NULL,"
            + " acquired_at = NULL, lease_until = NULL, freed_at = now(), phantom = false"
            + " WHERE g.solve_id IS NOT NULL AND ("
            + "   g.lease_until < now()"
            + "   OR NOT g.phantom AND NOT EXISTS (SELECT 1 FROM captchajobs.solve s WHERE s.id = g.solve_id"
            + "     AND s.status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED', 'FAILED'))"
            + "   OR EXISTS (SELECT 1 FROM captchajobs.solve s WHERE s.id = g.solve_id"
            + "     AND s.status = 'FAILED' AND s.error_code IS DISTINCT FROM 'TIMEOUT'"
            + "     AND s.error_code IS DISTINCT FROM 'DEADLINE_EXCEEDED')"
            + "   OR (NOT g.phantom AND g.server_id IS NOT NULL"
            + "     AND g.server_id::text NOT IN (SELECT id::text FROM captchajobs.cj_jobrunr_backgroundjobservers)"
            + "     AND NOT EXISTS (SELECT 1 FROM captchajobs.solve s WHERE s.id = g.solve_id"
            + "       AND s.status IN ('SUBMITTED', 'FAILED'))))");
  }
}

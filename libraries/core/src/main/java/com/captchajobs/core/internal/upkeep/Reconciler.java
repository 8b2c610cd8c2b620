package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.steps.SlotHandoff;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.ProcessingState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.BackgroundJobServerStatus;
import org.jobrunr.storage.ConcurrentJobModificationException;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.navigation.AmountRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recurring repair pass (invariant "bounded life" of docs/architecture.md): returns leaked
 * slots, expires unclaimed tokens, re-creates the job of any unfinished solve left without a live
 * one, hands free slots to waiting solves whose wait is over, folds the clients' unfinished counts
 * ({@link SolveRepository#foldUnfinished}). One node runs it at a time (an advisory lock); every
 * step is idempotent besides, so a pass cut short is simply run again.
 *
 * <p>A recovery job's id is named by the solve's repair count, incremented in the statement that
 * records the job: no two repairs of a solve share an id, so JobRunr never skips one as a
 * duplicate. The pass walks every stuck solve, oldest first, page by page: no number of wedged rows
 * hides another.
 */
public final class Reconciler implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
  private static final int PAGE = 500;
  private static final int PROCESSING_PAGE = 1000;
  private static final UUID FIRST = new UUID(0, 0);

  private final SolveRepository repository;
  private final FleetGate gate;
  private final SlotHandoff handoff;
  private final SolveJobs jobs;
  private final Duration stuckAfter;
  private final Duration solveDeadline;
  private final Clock clock;
  private final NodeLiveness liveness;
  private final StorageProvider storage;
  private final Duration lostSubmitHold;
  private final List<PhantomRelease> phantoms = new ArrayList<>();

  /**
   * @param liveness this node's liveness lock: it notices dead nodes in seconds (a JobRunr server
   *     that this node saw holding its liveness lock and that holds it no more is dead; its running
   *     jobs are taken from it and its solves resume on a live node, see {@link
   *     #recoverDeadServers})
   * @param storage our JobRunr's storage, whose servers and running jobs the pass reads
   * @param lostSubmitHold how long a slot is held after a submit that may have reached the provider
   * @param threadsInfo by provider (the primary first), asks it for its key's working threads
   *     (res.php {@code threadsinfo}), which frees its phantoms early, after a provider outage or a
   *     lost in.php reply: see {@link PhantomRelease}
   */
  public Reconciler(
      SolveRepository repository,
      FleetGate gate,
      SlotHandoff handoff,
      SolveJobs jobs,
      Duration stuckAfter,
      Duration solveDeadline,
      Clock clock,
      NodeLiveness liveness,
      StorageProvider storage,
      Duration lostSubmitHold,
      Map<String, Supplier<ThreadsInfo>> threadsInfo) {
    this.repository = repository;
    this.gate = gate;
    this.handoff = handoff;
    this.jobs = jobs;
    this.stuckAfter = stuckAfter;
    this.solveDeadline = solveDeadline;
    this.clock = clock;
    this.liveness = Objects.requireNonNull(liveness, "liveness");
    this.storage = Objects.requireNonNull(storage, "storage");
    this.lostSubmitHold = Objects.requireNonNull(lostSubmitHold, "lostSubmitHold");
    threadsInfo.forEach((provider, read) -> phantoms.add(new PhantomRelease(provider, read)));
  }

  /**
   * How long this node's own liveness lock must have been held before it judges others: after a
   * database outage every node needs a moment to take its lock again.
   */
  static final Duration JUDGE_AFTER = Duration.ofSeconds(3);

  /** Servers this node has seen holding their liveness lock, and when last. */
  private final Map<UUID, Instant> seenLive = new ConcurrentHashMap<>();

  @Override
  public void run() {
    try {
      reconcile();
    } catch (RuntimeException e) {
      log.warn("Reconcile pass failed, next pass will try again: {}", e.toString());
    }
  }

  /** One pass, unless another node is running one; true when this call ran it. */
  public boolean reconcile() {
    return repository.exclusively(this::pass);
  }

  private void pass() {
    recoverDeadServers();
    releaseConfirmedPhantoms();
    int reclaimed = gate.reclaim();
    if (reclaimed > 0) {
      log.info("Reclaimed {} leaked gate slot(s)", reclaimed);
    }
    int expired = repository.expireTokens();
    if (expired > 0) {
      log.info("Expired {} unclaimed token(s)", expired);
    }
    repairStuck();
    handoff.handOff();
    repository.foldUnfinished();
  }

  /**
   * The pass's phantom step alone, and the hand-off of what it freed, unless a pass runs now (then
   * false): run soon after a phantom is made ({@link WorkerStartup#readPhantomsSoon}).
   */
  public boolean judgePhantoms() {
    return repository.exclusively(
        () -> {
          if (releaseConfirmedPhantoms() > 0) {
            handoff.handOff();
          }
        });
  }

  /** Each provider's phantoms judged by its own threadsinfo ({@link PhantomRelease}). */
  int releaseConfirmedPhantoms() {
    return PhantomRelease.releaseAll(phantoms, gate.phantomSlots());
  }

  /**
   * Every node, every second (run by {@link NodeLiveness}, not only on the node that runs the
   * pass): which registered servers hold their liveness lock. Only a server once seen live can
   * later be judged dead, so a server of an older release, which never takes the lock, is never
   * taken for dead. When one seen live holds it no more, its jobs are taken back at once ({@link
   * #recoverDeadServers}, under the repair pass's lock), up to a pass sooner than the pass would.
   */
  public void observeServers() {
    Set<UUID> registered = registeredServers();
    Instant now = clock.instant();
    Set<UUID> live = gate.liveServers(registered);
    live.forEach(server -> seenLive.put(server, now));
    seenLive.keySet().retainAll(registered);
    UUID self = liveness.serverId();
    if (seenLive.keySet().stream().anyMatch(s -> !live.contains(s) && !s.equals(self))) {
      // a server seen live lost its lock: its solves resume now, not at the next repair pass
      repository.exclusively(this::recoverDeadServers);
    }
  }

  private Set<UUID> registeredServers() {
    return storage.getBackgroundJobServers().stream()
        .map(BackgroundJobServerStatus::getId)
        .collect(Collectors.toCollection(HashSet::new));
  }

  /**
   * The servers seen live before that hold their liveness lock no more (their process died or their
   * host was lost), judged only while this node's own lock has been held for {@link #JUDGE_AFTER}.
   * Their PROCESSING jobs are deleted (nobody runs them any more) and the solves those jobs were
   * moving get a new submit job at once, which resumes a stored task id without a new in.php call;
   * their slots stay with them. A solve that may have been inside in.php when its node died (its
   * submit lock still runs, no task id stored) leaves its slot to a phantom holder for {@code
   * captchaai.lost-submit-hold}, as after a lost reply, and queues for another slot at once.
   * Returns how many solves were given a new job.
   */
  int recoverDeadServers() {
    if (!liveness.mayJudge(JUDGE_AFTER)) {
      return 0;
    }
    Set<UUID> suspects = new HashSet<>(seenLive.keySet());
    suspects.retainAll(registeredServers());
    suspects.remove(liveness.serverId());
    if (suspects.isEmpty()) {
      return 0;
    }
    Set<UUID> dead = new HashSet<>(suspects);
    dead.removeAll(gate.liveServers(suspects));
    if (dead.isEmpty()) {
      return 0;
    }
    Taken taken = takeBack(dead, true);
    int unregistered = unregister(dead);
    dead.forEach(seenLive::remove);
    log.warn(
        "Server(s) {} died (liveness lock gone): {} running job(s) taken from them, {} solve(s)"
            + " resumed elsewhere, {} server(s) removed from JobRunr's servers",
        dead,
        taken.jobs(),
        taken.resumed(),
        unregistered);
    return taken.resumed();
  }

  /**
   * Removes dead servers from JobRunr's servers table at once, as JobRunr itself would only after
   * its server timeout (4 poll intervals after the last heartbeat). JobRunr's master is the oldest
   * registered server, and only the master moves SCHEDULED jobs (retries after a transient error,
   * later submits, scheduled polls) to ENQUEUED: while a dead master stays registered, those jobs
   * wait, slots stay free and their solves wait with them. Under repeated kills the next oldest may
   * be dead too, so the wait chained to a minute in the chaos run. Without the dead rows, a live
   * server takes the master role at its next heartbeat. Its slots are then reclaimed like those of
   * any server that left ({@link FleetGate#reclaim}), after its running solves were taken back.
   */
  private int unregister(Set<UUID> dead) {
    int removed = 0;
    for (BackgroundJobServerStatus server : storage.getBackgroundJobServers()) {
      if (dead.contains(server.getId())) {
        try {
          storage.signalBackgroundJobServerStopped(server);
          removed++;
        } catch (RuntimeException e) {
          log.warn("Could not remove dead server {}: {}", server.getId(), e.toString());
        }
      }
    }
    return removed;
  }

  /** What {@link #takeBackJobsOf} did: running jobs taken, solves given a new job. */
  public record Taken(int jobs, int resumed) {}

  /**
   * Takes the PROCESSING jobs of {@code servers} (their node died, or is this node whose JobRunr
   * server a database outage stopped) and gives the solves they were moving, or that the servers'
   * executors of pushed fetches carried (the server is their carrier), a new submit job at once: a
   * stored task id is resumed without a new in.php call; a solve that may have been inside in.php
   * keeps no slot before its lost-submit hold ends, and, as its job's thread may still be in the
   * call on this live node, no new in.php before its lock lapses.
   */
  public Taken takeBackJobsOf(Set<UUID> servers) {
    return takeBack(servers, false);
  }

  /**
   * {@link #takeBackJobsOf}; with {@code dead}, the servers' processes are gone (their liveness
   * locks ended), so a solve they may have been submitting is submitted again at once (its slot
   * stays with a phantom).
   */
  private Taken takeBack(Set<UUID> servers, boolean dead) {
    if (servers.isEmpty()) {
      return new Taken(0, 0);
    }
    List<UUID> taken = new ArrayList<>();
    for (Job job :
        storage.getJobList(
            StateName.PROCESSING, new AmountRequest("updatedAt:ASC", PROCESSING_PAGE))) {
      if (job.getJobState() instanceof ProcessingState p && servers.contains(p.getServerId())) {
        try {
          storage.save(job.delete("its server " + p.getServerName() + " stopped running it"));
          taken.add(job.getId());
        } catch (ConcurrentJobModificationException e) {
          // changed meanwhile: not the dead server's any more
        }
      }
    }
    List<UUID> carriers = new ArrayList<>(taken);
    carriers.addAll(servers);
    int resumed = 0;
    for (SolveRepository.Stuck stuck : repository.unfinishedWithJobs(carriers)) {
      Solve solve = stuck.solve();
      if (solve.taskId() == null && repository.submitLocked(solve.id())) {
        // The dead node may have been inside in.php (or only about to call it: a hand-off takes
        // the lock first). Its slot stays with a phantom, so the cap holds whatever it did; the
        // solve itself is submitted again at once rather than after its lock (the call timeout
        // and more): a second task only when the dead node's in.php reached the provider, a
        // duplicate a kill explains.
        gate.holdAfterLostSubmit(solve.id(), lostSubmitHold);
        if (dead) {
          repository.clearSubmitLock(solve.id());
        }
      }
      resumed += repair(stuck, "resume");
    }
    return new Taken(taken.size(), resumed);
  }

  /** Re-creates a job for every stuck solve; returns how many got one. */
  int repairStuck() {
    int repaired = 0;
    Instant afterUpdatedAt = Instant.EPOCH;
    UUID afterId = FIRST;
    while (true) {
      List<SolveRepository.Stuck> page =
          repository.findStuck(stuckAfter, solveDeadline, afterUpdatedAt, afterId, PAGE);
      repaired += page.stream().mapToInt(stuck -> repair(stuck, "repair")).sum();
      if (page.size() < PAGE) {
        return repaired;
      }
      Solve last = page.get(page.size() - 1).solve();
      afterUpdatedAt = last.updatedAt();
      afterId = last.id();
    }
  }

  /** {@link #repair(SolveRepository.Stuck)}, logging a failure; 1 when the solve got a job. */
  private int repair(SolveRepository.Stuck stuck, String what) {
    try {
      return repair(stuck) ? 1 : 0;
    } catch (RuntimeException e) {
      log.warn("Could not {} solve {}: {}", what, stuck.solve().id(), e.toString());
      return 0;
    }
  }

  private boolean repair(SolveRepository.Stuck stuck) {
    Solve solve = stuck.solve();
    int repairNo = stuck.repairs() + 1;
    UUID jobId = SolveJobs.jobId(solve.id(), "repair:" + repairNo);
    // The job id first, then the job: a crash between the two leaves a row the next pass repairs
    // again under the next number.
    if (!repository.markRepaired(solve.id(), stuck.repairs(), jobId)) {
      return false; // moved meanwhile
    }
    jobs.submit(jobId, solve.id(), solve.type(), solve.businessKey(), 0);
    log.info(
        "Solve {} ({}) {} without a live job: repair #{} created submit job {}",
        solve.businessKey(),
        solve.id(),
        solve.status(),
        repairNo,
        jobId);
    return true;
  }
}

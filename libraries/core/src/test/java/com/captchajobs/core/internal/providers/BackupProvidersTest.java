package com.captchajobs.core.internal.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.ProviderRow;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.settings.ProviderSettings;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.KeyPlan;
import com.captchajobs.simulator.TaskRecord;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A primary and a backup (or a pool key) behind one gate (docs/providers.md), each a simulator of
 * its own over real sockets, on a real PostgreSQL: the rows of issue 36's targets.
 */
@Execution(ExecutionMode.CONCURRENT)
class BackupProvidersTest {

  static final String KEY = "primprimprimprimprimprimprimprim";
  static final String BACKUP_KEY = "backbackbackbackbackbackbackback";
  static final String POOL_KEY = "poolpoolpoolpoolpoolpoolpoolpool";

  /** The engine's times, scaled as in ProviderOutageTest (the primary-down window is not). */
  static Map<String, String> scaledTimes(int threads) {
    return new HashMap<>(
        Map.ofEntries(
            Map.entry("captchaai.threads", String.valueOf(threads)),
            Map.entry("captchaai.first-poll-wait.TURNSTILE", "1s"),
            Map.entry("captchaai.solve-timeout", "20s"),
            Map.entry("captchaai.lease", "40s"),
            Map.entry("captchaai.solve-deadline", "5m"),
            Map.entry("captchaai.lost-submit-hold", "3s"),
            Map.entry("captchaai.max-backoff", "2s"),
            Map.entry("captchaai.stuck-after", "2s"),
            Map.entry("captchaai.reconcile-interval", "1s")));
  }

  /** The primary: 5 threads, the solve times scaled by 0.05. */
  static CaptchaAiSimulator primarySim() {
    return CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
  }

  static CaptchaAiSimulator backupSim(KeyPlan plan) {
    return CaptchaAiSimulator.builder()
        .name("backup")
        .seed(2)
        .account(BACKUP_KEY, plan)
        .timeScale(0.05)
        .build()
        .start();
  }

  static ProviderSettings.Builder backup(CaptchaAiSimulator sim, int threads) {
    return ProviderSettings.builder()
        .name("backup")
        .baseUrl(sim.baseUrl())
        .apiKey(BACKUP_KEY)
        .threads(threads)
        .role(ProviderSettings.Role.BACKUP);
  }

  /** Pages accepted (so paid) at both simulators. */
  static Set<String> paidTwice(CaptchaAiSimulator a, CaptchaAiSimulator b) {
    Set<String> atA = a.tasks().stream().map(TaskRecord::pageUrl).collect(Collectors.toSet());
    return b.tasks().stream()
        .map(TaskRecord::pageUrl)
        .filter(atA::contains)
        .collect(Collectors.toSet());
  }

  @Test
  void withThePrimaryDownEverySolveIsSolvedAtTheBackupAndNewOnesGoBackToThePrimaryOnceItHeals() {
    try (CaptchaAiSimulator primary = primarySim();
        CaptchaAiSimulator backupSim = backupSim(KeyPlan.threads(10).price("TURNSTILE", "1.45"));
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary,
                KEY,
                scaledTimes(5),
                List.of(
                    backup(backupSim, 10)
                        .price(CaptchaType.TURNSTILE, new BigDecimal("1.45"))
                        .build()))) {
      SolveProbe solves = node.probe();
      primary.startOutage(Fault.HTML_502);
      List<UUID> ids = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        ids.add(solves.turnstile("down-" + i));
      }
      long enqueued = System.nanoTime();

      await()
          .atMost(Duration.ofSeconds(150))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
      System.out.printf(
          "PRIMARY DOWN -> 8 SOLVES FINAL IN %.1f s%n", (System.nanoTime() - enqueued) / 1e9);

      assertThat(ids)
          .allSatisfy(id -> assertThat(solves.get(id).status()).isEqualTo(SolveStatus.SOLVED));
      assertThat(ids).allSatisfy(id -> assertThat(solves.get(id).provider()).isEqualTo("backup"));
      assertThat(node.captchaJobs().solves().status(ids.get(0)).provider()).isEqualTo("backup");
      assertThat(primary.tasks()).isEmpty();
      assertThat(backupSim.stats().maxInFlight()).isLessThanOrEqualTo(10);
      // the spend the engine counted is what the backup charged
      BigDecimal charged =
          backupSim.spend().stream().map(s -> s.amount()).reduce(BigDecimal.ZERO, BigDecimal::add);
      BigDecimal counted =
          solves
              .jdbc()
              .queryForObject(
                  "SELECT COALESCE(sum(amount), 0)::text FROM captchajobs.provider_spend"
                      + " WHERE provider = 'backup'",
                  String.class)
              .transform(BigDecimal::new);
      assertThat(counted).isEqualByComparingTo(charged).isPositive();
      // the backup's key is stored nowhere, its fingerprint names it
      assertThat(solves.everyStoredText()).noneMatch(text -> text.contains(BACKUP_KEY));

      // a report goes to the provider that solved, with its key
      UUID reported = ids.get(0);
      node.captchaJobs().solves().claim(reported);
      node.captchaJobs().solves().report(reported, Verdict.BAD);
      String taskId =
          solves
              .jdbc()
              .queryForObject(
                  "SELECT task_id FROM captchajobs.solve WHERE id = ?", String.class, reported);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !backupSim.reports(Long.parseLong(taskId)).isEmpty());
      assertThat(primary.reports()).isEmpty();

      // the primary is back: within a minute a new solve goes to it again
      primary.endOutage();
      long healed = System.nanoTime();
      List<UUID> after = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(2))
          .until(
              () -> {
                after.add(solves.turnstile("back-" + after.size()));
                return after.stream().anyMatch(id -> "captchaai".equals(solves.get(id).provider()));
              });
      System.out.printf(
          "PRIMARY BACK -> FIRST NEW SOLVE AT THE PRIMARY %.1f s%n",
          (System.nanoTime() - healed) / 1e9);
      UUID last = solves.turnstile("back-last");
      assertThat(solves.awaitStatus(last, SolveStatus.SOLVED, Duration.ofSeconds(60)).provider())
          .isEqualTo("captchaai");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> after.stream().allMatch(id -> solves.get(id).status().isFinal()));
      assertThat(after)
          .allSatisfy(id -> assertThat(solves.get(id).status()).isEqualTo(SolveStatus.SOLVED));
      assertThat(paidTwice(primary, backupSim)).isEmpty();
    }
  }

  @Test
  void solvesThatWaitedOverflowAfterForAFullPrimaryGoToTheBackup() {
    try (CaptchaAiSimulator primary =
            CaptchaAiSimulator.builder()
                .account(KEY, 1)
                .solveTime("turnstile", Duration.ofSeconds(40), Duration.ofSeconds(50))
                .build()
                .start();
        CaptchaAiSimulator backupSim = backupSim(KeyPlan.threads(5));
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary,
                KEY,
                longSolves(scaledTimes(1)),
                List.of(backup(backupSim, 5).overflowAfter(Duration.ofSeconds(20)).build()))) {
      SolveProbe solves = node.probe();
      List<UUID> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        ids.add(solves.turnstile("full-" + i));
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  ids.stream().filter(id -> solves.get(id).status() == SolveStatus.SOLVED).count()
                      == 3);

      Map<String, Long> byProvider =
          ids.stream()
              .collect(
                  Collectors.groupingBy(
                      id -> String.valueOf(solves.get(id).provider()), Collectors.counting()));
      assertThat(byProvider).containsEntry("backup", 3L).containsEntry("captchaai", 1L);
      // each went to the backup only after it had waited overflow-after
      for (UUID id : ids) {
        Solve s = solves.get(id);
        if ("backup".equals(s.provider())) {
          assertThat(Duration.between(s.createdAt(), s.submittedAt()))
              .isGreaterThanOrEqualTo(Duration.ofSeconds(20));
        }
      }
      assertThat(primary.stats().maxInFlight()).isEqualTo(1);
      assertThat(paidTwice(primary, backupSim)).isEmpty();
    }
  }

  @Test
  void aSolvePausedAfterAServerErrorTakesTheFreeSlotOnceItsPauseEndsWithoutTheRepairPass() {
    try (CaptchaAiSimulator primary = primarySim();
        CaptchaAiSimulator backupSim = backupSim(KeyPlan.threads(5));
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary,
                KEY,
                withoutRepairPass(scaledTimes(1)),
                List.of(backup(backupSim, 5).build()))) {
      SolveProbe solves = node.probe();
      primary.injectNext(Endpoint.IN, Fault.SERVER_ERROR);

      UUID paused = solves.turnstile("paused-0");

      // the pause is 5 s and up to a quarter more; then only the hand-off that runs between the
      // repair passes (WorkerStartup.DUE_HANDOFF_INTERVAL) hands it the free slot
      Solve solved = solves.awaitStatus(paused, SolveStatus.SOLVED, Duration.ofSeconds(20));
      assertThat(solved.provider()).isEqualTo("captchaai");
      assertThat(Duration.between(solved.createdAt(), solved.submittedAt()))
          .as("in.php again only after the pause the provider asks for")
          .isGreaterThanOrEqualTo(Duration.ofSeconds(5));
      assertThat(primary.stats().rejectedSubmitsByCode()).containsEntry("ERROR_SERVER_ERROR", 1L);
      assertThat(backupSim.tasks()).as("the primary was never down").isEmpty();
    }
  }

  /** {@code times} with a repair pass that never comes within a test. */
  private static Map<String, String> withoutRepairPass(Map<String, String> times) {
    times.put("captchaai.reconcile-interval", "1h");
    return times;
  }

  @Test
  void aPoolKeyTakesSolvesAtOnceWhenThePrimaryIsFull() {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 1)
            .account(POOL_KEY, 2)
            .solveTime("turnstile", Duration.ofSeconds(40), Duration.ofSeconds(50))
            .build()
            .start()) {
      try (EngineNode node =
          EngineNode.onFreshDatabase(
              sim,
              KEY,
              scaledTimes(1),
              List.of(
                  ProviderSettings.builder()
                      .name("second-plan")
                      .baseUrl(sim.baseUrl())
                      .apiKey(POOL_KEY)
                      .threads(2)
                      .role(ProviderSettings.Role.POOL)
                      .build()))) {
        SolveProbe solves = node.probe();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          ids.add(solves.turnstile("pool-" + i));
        }
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () ->
                    Map.of("captchaai", 1L, "second-plan", 2L)
                        .equals(
                            ids.stream()
                                .filter(id -> solves.get(id).status() == SolveStatus.SUBMITTED)
                                .collect(
                                    Collectors.groupingBy(
                                        id -> solves.get(id).provider(), Collectors.counting()))));
        // each key's own tasks at the provider, within its threads
        assertThat(sim.tasks(KEY)).hasSize(1);
        assertThat(sim.tasks(POOL_KEY)).hasSize(2);
        // the fourth waits: every provider's cap is exact
        assertThat(
                ids.stream()
                    .filter(id -> solves.get(id).status() == SolveStatus.WAITING_FOR_THREAD))
            .hasSize(1);
      }
    }
  }

  @Test
  void aBackupWhoseBudgetIsSpentTakesNoMoreAndTheRestWaitForThePrimary() {
    try (CaptchaAiSimulator primary = primarySim();
        CaptchaAiSimulator backupSim = backupSim(KeyPlan.threads(10).price("TURNSTILE", "1000"));
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary,
                KEY,
                scaledTimes(5),
                List.of(
                    backup(backupSim, 10)
                        .price(CaptchaType.TURNSTILE, new BigDecimal("1000"))
                        .dailyBudget(new BigDecimal("3.00"))
                        .build()))) {
      SolveProbe solves = node.probe();
      primary.startOutage(Fault.HTML_502);
      List<UUID> ids = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        ids.add(solves.turnstile("budget-" + i));
      }
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> count(solves, ids, SolveStatus.SOLVED) == 3);
      // no more at the backup, and none failed: the rest wait for a thread
      await()
          .during(Duration.ofSeconds(6))
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  backupSim.tasks().size() == 3
                      && count(solves, ids, SolveStatus.SOLVED) == 3
                      && count(solves, ids, SolveStatus.FAILED) == 0);

      ProviderRow row =
          node.captchaJobs().operations().providers().stream()
              .filter(p -> p.name().equals("backup"))
              .findFirst()
              .orElseThrow();
      assertThat(row.role()).isEqualTo("BACKUP");
      assertThat(row.spentToday()).isEqualByComparingTo("3.00");
      assertThat(row.dailyBudget()).isEqualByComparingTo("3.00");
      assertThat(row.breakerOpen()).isFalse();

      // the operator raises the budget: one more fits
      node.captchaJobs().operations().setDailyBudget("backup", new BigDecimal("4.00"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> count(solves, ids, SolveStatus.SOLVED) == 4);
      assertThat(backupSim.tasks()).hasSize(4);

      primary.endOutage();
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> count(solves, ids, SolveStatus.SOLVED) == 6);
      assertThat(ids.stream().filter(id -> "captchaai".equals(solves.get(id).provider())))
          .hasSize(2);
      assertThat(
              backupSim.spend().stream()
                  .map(s -> s.amount())
                  .reduce(BigDecimal.ZERO, BigDecimal::add))
          .isLessThanOrEqualTo(new BigDecimal("4.00"));
      assertThat(paidTwice(primary, backupSim)).isEmpty();
    }
  }

  @Test
  void aCredentialErrorAtTheBackupOpensItsBreakerOnlyAndFailsThatSolve() {
    try (CaptchaAiSimulator primary = primarySim();
        CaptchaAiSimulator backupSim =
            backupSim(KeyPlan.threads(5)); // knows BACKUP_KEY, not the key the node is given
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary,
                KEY,
                withoutPreflight(scaledTimes(5)), // else the preflight opens it, before in.php
                List.of(
                    backup(backupSim, 5)
                        .apiKey("wrongwrongwrongwrongwrongwrong12")
                        .overflowAfter(Duration.ZERO)
                        .build()))) {
      SolveProbe solves = node.probe();
      primary.startOutage(Fault.HTML_502);
      UUID id = solves.turnstile("bad-key");
      Solve failed = solves.awaitStatus(id, SolveStatus.FAILED, Duration.ofSeconds(90));
      assertThat(failed.errorClass()).isEqualTo(ErrorClass.CREDENTIAL);
      assertThat(failed.provider()).isEqualTo("backup");
      String backupFingerprint =
          ProviderSettings.builder()
              .name("x")
              .baseUrl("http://x")
              .apiKey("wrongwrongwrongwrongwrongwrong12")
              .threads(1)
              .build()
              .keyFingerprint();
      assertThat(
              solves
                  .jdbc()
                  .queryForList(
                      "SELECT key_fingerprint FROM captchajobs.breaker WHERE open", String.class))
          .containsExactly(backupFingerprint);

      primary.endOutage();
      UUID next = solves.turnstile("after-bad-key");
      Solve solved = solves.awaitStatus(next, SolveStatus.SOLVED, Duration.ofSeconds(90));
      assertThat(solved.provider()).isEqualTo("captchaai");
    }
  }

  @Test
  void theProviderCheckFindsABackupKeyRejectedAfterTheStartAndOpensThatBreakerOnly() {
    String wrongKey = "wrongwrongwrongwrongwrongwrong34";
    Map<String, String> properties = withoutPreflight(scaledTimes(5)); // nothing asks at start
    properties.put("captchaai.provider-check-interval", "1s");
    try (CaptchaAiSimulator primary = primarySim();
        CaptchaAiSimulator backupSim =
            backupSim(KeyPlan.threads(5)); // knows BACKUP_KEY, not the key the node is given
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary, KEY, properties, List.of(backup(backupSim, 5).apiKey(wrongKey).build()))) {
      SolveProbe solves = node.probe();
      String backupFingerprint =
          ProviderSettings.builder()
              .name("x")
              .baseUrl("http://x")
              .apiKey(wrongKey)
              .threads(1)
              .build()
              .keyFingerprint();
      // no solve ran: only the periodic threadsinfo can have found the rejected key
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  solves
                      .jdbc()
                      .queryForList(
                          "SELECT key_fingerprint FROM captchajobs.breaker WHERE open",
                          String.class),
              open -> open.equals(List.of(backupFingerprint)));
      assertThat(backupSim.tasks()).isEmpty();
      assertThat(primary.tasks()).isEmpty();
      // the primary's breaker stays closed: a solve goes there
      UUID id = solves.turnstile("after-backup-check");
      Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(90));
      assertThat(solved.provider()).isEqualTo("captchaai");
    }
  }

  @Test
  void aPrimaryWhoseKeyWasRejectedLeavesEverySolveToTheBackupAndNoneFails() {
    try (CaptchaAiSimulator primary = primarySim();
        CaptchaAiSimulator backupSim = backupSim(KeyPlan.threads(5));
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary,
                "rejectedrejectedrejectedrejected", // not the primary's: its preflight opens it
                scaledTimes(5),
                List.of(backup(backupSim, 5).build()))) {
      SolveProbe solves = node.probe();
      List<UUID> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        ids.add(solves.turnstile("rejected-" + i));
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));

      assertThat(ids)
          .allSatisfy(
              id -> {
                assertThat(solves.get(id).status()).isEqualTo(SolveStatus.SOLVED);
                assertThat(solves.get(id).provider()).isEqualTo("backup");
              });
      assertThat(primary.tasks()).isEmpty();
      assertThat(node.captchaJobs().operations().providers())
          .filteredOn(ProviderRow::breakerOpen)
          .extracting(ProviderRow::name)
          .containsExactly("captchaai");
    }
  }

  @Test
  void aTaskAcceptedByTheBackupIsNeverSubmittedToThePrimaryWhileItMayStillAnswer() {
    try (CaptchaAiSimulator primary = primarySim();
        CaptchaAiSimulator backupSim =
            CaptchaAiSimulator.builder()
                .name("backup")
                .seed(2)
                .account(BACKUP_KEY, KeyPlan.threads(5).price("TURNSTILE", "1.45"))
                .solveTime("turnstile", Duration.ofSeconds(12), Duration.ofSeconds(12))
                .build()
                .start();
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary,
                KEY,
                scaledTimes(5),
                List.of(
                    backup(backupSim, 5)
                        .price(CaptchaType.TURNSTILE, new BigDecimal("1.45"))
                        .build()))) {
      SolveProbe solves = node.probe();
      primary.startOutage(Fault.HTML_502);
      UUID id = solves.turnstile("once");
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () ->
                  solves.get(id).status() == SolveStatus.SUBMITTED
                      && "backup".equals(solves.get(id).provider()));
      // The primary heals with every thread free, and the backup's res.php fails for a while:
      // the task may still answer, so it is asked again, never submitted to the primary.
      primary.endOutage();
      backupSim.startOutage(Fault.HTML_502);
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(8))
          .until(() -> primary.tasks().isEmpty() && backupSim.tasks().size() == 1);
      backupSim.endOutage();

      Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(60));
      assertThat(solved.provider()).isEqualTo("backup");
      assertThat(primary.tasks()).isEmpty();
      assertThat(backupSim.tasks()).hasSize(1);
      assertThat(paidTwice(primary, backupSim)).isEmpty();
    }
  }

  private static Map<String, String> withoutPreflight(Map<String, String> properties) {
    properties.put("captchaai.preflight", "false");
    return properties;
  }

  /** The primary's solves of 40 to 50 s are neither given up nor their slots' leases ended. */
  private static Map<String, String> longSolves(Map<String, String> properties) {
    properties.put("captchaai.solve-timeout", "2m");
    properties.put("captchaai.lease", "3m");
    return properties;
  }

  private static long count(SolveProbe solves, List<UUID> ids, SolveStatus status) {
    return ids.stream().filter(id -> solves.get(id).status() == status).count();
  }
}

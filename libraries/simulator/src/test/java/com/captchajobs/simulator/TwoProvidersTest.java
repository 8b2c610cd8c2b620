package com.captchajobs.simulator;

import static com.captchajobs.simulator.ApiClient.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Several providers at once over real sockets: a primary and a backup simulator in one JVM, each on
 * its own port with its own keys, prices and faults, and one simulator with two keys of different
 * plans.
 */
@Tag("unit")
class TwoProvidersTest {
  static final String PRIMARY_KEY = "primprimprimprimprimprimprimprim";
  static final String BACKUP_KEY = "backbackbackbackbackbackbackback";
  static final String POOL_KEY = "poolpoolpoolpoolpoolpoolpoolpool";
  static final Duration LONG = Duration.ofSeconds(60);
  static final Duration SHORT = Duration.ofMillis(100);

  static CaptchaAiSimulator primary(Duration solve) {
    return CaptchaAiSimulator.builder()
        .name("captchaai")
        .account(PRIMARY_KEY, 2)
        .solveTime("turnstile", solve, solve)
        .solveTime("userrecaptcha", solve, solve)
        .build()
        .start();
  }

  static CaptchaAiSimulator backup(Duration solve) {
    return CaptchaAiSimulator.builder()
        .name("backup")
        .seed(2) // its own task ids and random streams
        .account(
            BACKUP_KEY,
            KeyPlan.threads(1)
                .price("TURNSTILE", "1.45")
                .price("RECAPTCHA_V2", "2.99")
                .overCapMode(OverCapMode.NO_SLOT_AVAILABLE))
        .solveTime("turnstile", solve, solve)
        .solveTime("userrecaptcha", solve, solve)
        .build()
        .start();
  }

  static JsonNode turnstile(ApiClient client, String key, String page) {
    return client.submitJson(key, "method", "turnstile", "sitekey", "0x4", "pageurl", page);
  }

  static JsonNode recaptcha(ApiClient client, String key, String page, String... extra) {
    List<String> pairs =
        new ArrayList<>(List.of("method", "userrecaptcha", "googlekey", "6Le", "pageurl", page));
    pairs.addAll(List.of(extra));
    return client.submitJson(key, pairs.toArray(String[]::new));
  }

  static String code(JsonNode reply) {
    return reply.get("request").asString();
  }

  static String today(CaptchaAiSimulator sim) {
    return LocalDate.ofInstant(Instant.ofEpochMilli(sim.nowMillis()), ZoneOffset.UTC).toString();
  }

  @Test
  void twoProvidersAtOnceKeepSeparateTaskRecordsThreadCapsAndSpend() {
    try (CaptchaAiSimulator primary = primary(LONG);
        CaptchaAiSimulator backup = backup(LONG)) {
      ApiClient atPrimary = new ApiClient(primary.baseUrl());
      ApiClient atBackup = new ApiClient(backup.baseUrl());
      assertThat(primary.port()).isNotEqualTo(backup.port());

      String p1 = code(turnstile(atPrimary, PRIMARY_KEY, "https://shop/1"));
      String p2 = code(turnstile(atPrimary, PRIMARY_KEY, "https://shop/2"));
      String b1 = code(turnstile(atBackup, BACKUP_KEY, "https://shop/3"));
      // each provider's own cap and its own answer when full
      assertThat(code(turnstile(atPrimary, PRIMARY_KEY, "https://shop/4")))
          .isEqualTo("ERROR_ZERO_BALANCE");
      assertThat(code(turnstile(atBackup, BACKUP_KEY, "https://shop/4")))
          .isEqualTo("ERROR_NO_SLOT_AVAILABLE");
      // a key of one provider is unknown at the other
      assertThat(code(turnstile(atBackup, PRIMARY_KEY, "https://shop/5")))
          .isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
      assertThat(code(atPrimary.poll(PRIMARY_KEY, b1))).isEqualTo("ERROR_WRONG_CAPTCHA_ID");

      assertThat(primary.tasks()).extracting(t -> String.valueOf(t.id())).containsExactly(p1, p2);
      assertThat(primary.tasks())
          .extracting(TaskRecord::subject)
          .containsExactly("https://shop/1", "https://shop/2");
      assertThat(backup.tasks()).extracting(t -> String.valueOf(t.id())).containsExactly(b1);
      assertThat(backup.tasks().get(0).keyFingerprint()).isEqualTo("back…");
      assertThat(primary.stats().maxInFlight()).isEqualTo(2);
      assertThat(backup.stats().maxInFlight()).isEqualTo(1);
      assertThat(primary.stats().rejected("ERROR_ZERO_BALANCE")).isEqualTo(1);
      assertThat(backup.stats().rejected("ERROR_NO_SLOT_AVAILABLE")).isEqualTo(1);

      // the primary is billed by threads: it spends nothing; the backup's task cost 1.45 / 1,000
      assertThat(primary.spend()).isEmpty();
      assertThat(primary.tasks()).allSatisfy(t -> assertThat(t.price()).isZero());
      assertThat(backup.tasks().get(0).price()).isEqualByComparingTo("0.00145");
      assertThat(backup.spend())
          .containsExactly(
              new SpendRecord(
                  "back…", today(backup), "TURNSTILE", 1, KeyBilling.perTask(bd("1.45"))));
      LocalDate day = LocalDate.parse(backup.spend().get(0).day());
      assertThat(backup.spentOn(BACKUP_KEY, day)).isEqualByComparingTo("0.00145");
      assertThat(primary.spentOn(PRIMARY_KEY, day)).isEqualByComparingTo("0");
    }
  }

  @Test
  void aDownProviderAnswers502WhileTheOtherSolves() {
    try (CaptchaAiSimulator primary = primary(SHORT);
        CaptchaAiSimulator backup = backup(SHORT)) {
      ApiClient atPrimary = new ApiClient(primary.baseUrl());
      ApiClient atBackup = new ApiClient(backup.baseUrl());
      primary.startOutage(Fault.HTML_502);

      HttpResponse<String> down =
          atPrimary.get(
              "/in.php",
              params(
                  "key",
                  PRIMARY_KEY,
                  "json",
                  "1",
                  "method",
                  "turnstile",
                  "sitekey",
                  "0x4",
                  "pageurl",
                  "https://shop/1"));
      assertThat(down.statusCode()).isEqualTo(502);
      assertThat(down.body()).contains("<html>");

      String id = code(turnstile(atBackup, BACKUP_KEY, "https://shop/1"));
      await()
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> atBackup.poll(BACKUP_KEY, id).get("status").asInt() == 1);

      assertThat(primary.tasks()).isEmpty();
      assertThat(primary.requests())
          .allSatisfy(
              r -> {
                assertThat(r.outcome()).isEqualTo("FAULT");
                assertThat(r.fault()).isEqualTo("HTML_502");
              });
      assertThat(backup.tasks()).singleElement().satisfies(t -> assertThat(t.fetched()).isTrue());
      assertThat(backup.requests()).allSatisfy(r -> assertThat(r.fault()).isNull());
      assertThat(backup.stats().solvedTasks()).isEqualTo(1);

      primary.endOutage(); // the primary heals: it solves again
      assertThat(turnstile(atPrimary, PRIMARY_KEY, "https://shop/2").get("status").asInt())
          .isEqualTo(1);
    }
  }

  @Test
  void aPricedKeysSpendAddsUpPerTypeAndDayAndIsServedOnTheSpendEndpoint() {
    try (CaptchaAiSimulator backup =
        CaptchaAiSimulator.builder()
            .account(
                BACKUP_KEY,
                KeyPlan.threads(10).price("TURNSTILE", "1.45").price("RECAPTCHA_V2", "2.99"))
            .solveTime("turnstile", LONG, LONG)
            .solveTime("userrecaptcha", LONG, LONG)
            .build()
            .start()) {
      ApiClient client = new ApiClient(backup.baseUrl());
      for (int i = 0; i < 3; i++) {
        turnstile(client, BACKUP_KEY, "https://t/" + i);
      }
      recaptcha(client, BACKUP_KEY, "https://r/1");
      recaptcha(client, BACKUP_KEY, "https://r/2");
      recaptcha(client, BACKUP_KEY, "https://r/3", "version", "v3", "min_score", "0.3"); // unpriced

      List<TaskRecord> tasks = backup.tasks(BACKUP_KEY);
      assertThat(tasks)
          .extracting(TaskRecord::type)
          .containsExactly(
              "TURNSTILE",
              "TURNSTILE",
              "TURNSTILE",
              "RECAPTCHA_V2",
              "RECAPTCHA_V2",
              "RECAPTCHA_V3");
      // what the rows must say, worked out from the task records (a run may straddle midnight)
      Map<String, BigDecimal> expected =
          tasks.stream()
              .filter(t -> !t.type().equals("RECAPTCHA_V3"))
              .collect(
                  Collectors.toMap(
                      t -> KeyBilling.dayOf(t.acceptedAt()) + " " + t.type(),
                      TaskRecord::price,
                      BigDecimal::add,
                      TreeMap::new));
      Map<String, BigDecimal> actual =
          backup.spend(BACKUP_KEY).stream()
              .collect(
                  Collectors.toMap(
                      r -> r.day() + " " + r.type(),
                      SpendRecord::amount,
                      BigDecimal::add,
                      TreeMap::new));
      assertThat(actual).isEqualTo(expected);
      assertThat(backup.spend(BACKUP_KEY).stream().mapToLong(SpendRecord::tasks).sum())
          .isEqualTo(5);
      assertThat(
              backup.spend(BACKUP_KEY).stream()
                  .map(SpendRecord::amount)
                  .reduce(BigDecimal.ZERO, BigDecimal::add))
          .isEqualByComparingTo("0.01033"); // 3 x 1.45 / 1,000 + 2 x 2.99 / 1,000

      JsonNode rows = ApiClient.json(client.get("/spend", params("key", BACKUP_KEY)));
      assertThat(rows.size()).isEqualTo(backup.spend(BACKUP_KEY).size());
      assertThat(rows.get(0).get("keyFingerprint").asString()).isEqualTo("back…");
      assertThat(rows.toString()).doesNotContain(BACKUP_KEY);
      BigDecimal overHttp = BigDecimal.ZERO;
      for (JsonNode row : rows) {
        overHttp = overHttp.add(new BigDecimal(row.get("amount").asString()));
      }
      assertThat(overHttp).isEqualByComparingTo("0.01033");
      assertThat(ApiClient.json(client.get("/spend", Map.of())).size()).isEqualTo(rows.size());
      assertThat(ApiClient.json(client.get("/tasks", Map.of())).get(0).get("price").asString())
          .isEqualTo("0.00145");

      backup.reset();
      assertThat(backup.spend()).isEmpty();
    }
  }

  @Test
  void oneSimulatorServesTwoKeysEachWithItsOwnThreadsOverCapAnswerAndSpend() {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(PRIMARY_KEY, 2)
            .account(
                POOL_KEY,
                KeyPlan.threads(1)
                    .price("TURNSTILE", "2")
                    .overCapMode(OverCapMode.NO_SLOT_AVAILABLE))
            .solveTime("turnstile", LONG, LONG)
            .build()
            .start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      turnstile(client, PRIMARY_KEY, "https://a/1");
      turnstile(client, PRIMARY_KEY, "https://a/2");
      turnstile(client, POOL_KEY, "https://b/1");
      assertThat(code(turnstile(client, PRIMARY_KEY, "https://a/3")))
          .isEqualTo("ERROR_ZERO_BALANCE");
      assertThat(code(turnstile(client, POOL_KEY, "https://b/2")))
          .isEqualTo("ERROR_NO_SLOT_AVAILABLE");

      assertThat(sim.tasks(PRIMARY_KEY))
          .extracting(TaskRecord::subject, TaskRecord::keyFingerprint)
          .containsExactly(tuple("https://a/1", "prim…"), tuple("https://a/2", "prim…"));
      assertThat(sim.tasks(POOL_KEY))
          .extracting(TaskRecord::subject)
          .containsExactly("https://b/1");
      assertThat(sim.stats(PRIMARY_KEY).maxInFlight()).isEqualTo(2);
      assertThat(sim.stats(POOL_KEY).maxInFlight()).isEqualTo(1);
      assertThat(sim.spend(PRIMARY_KEY)).isEmpty();
      assertThat(sim.spend()).extracting(SpendRecord::keyFingerprint).containsExactly("pool…");
      assertThat(sim.spend(POOL_KEY).get(0).amount()).isEqualByComparingTo("0.002");
    }
  }

  @Test
  void aKeyWhoseBalanceRunsOutAnswersZeroBalanceUntilToppedUp() {
    try (CaptchaAiSimulator backup =
        CaptchaAiSimulator.builder()
            .account(BACKUP_KEY, KeyPlan.threads(10).price("TURNSTILE", "1000").balance("2.5"))
            .solveTime("turnstile", LONG, LONG)
            .build()
            .start()) {
      ApiClient client = new ApiClient(backup.baseUrl());
      assertThat(turnstile(client, BACKUP_KEY, "https://z/1").get("status").asInt()).isEqualTo(1);
      assertThat(turnstile(client, BACKUP_KEY, "https://z/2").get("status").asInt()).isEqualTo(1);
      assertThat(code(client.resJson(BACKUP_KEY, "action", "getbalance"))).isEqualTo("0.5");
      assertThat(code(turnstile(client, BACKUP_KEY, "https://z/3")))
          .isEqualTo("ERROR_ZERO_BALANCE");
      assertThat(backup.tasks()).hasSize(2);
      assertThat(backup.spend(BACKUP_KEY).get(0).tasks()).isEqualTo(2);

      backup.setBalance(BACKUP_KEY, bd("10"));
      assertThat(turnstile(client, BACKUP_KEY, "https://z/3").get("status").asInt()).isEqualTo(1);
      backup.setBalance(BACKUP_KEY, BigDecimal.ZERO);
      assertThat(code(client.resJson(BACKUP_KEY, "action", "getbalance"))).isEqualTo("0");
      assertThat(code(turnstile(client, BACKUP_KEY, "https://z/4")))
          .isEqualTo("ERROR_ZERO_BALANCE");
      assertThat(backup.stats().rejected("ERROR_ZERO_BALANCE")).isEqualTo(2);
    }
  }

  @Test
  void twoSimulatorsInOneJvmStampTheirRecordsOnOneClock() {
    try (CaptchaAiSimulator primary = primary(SHORT);
        CaptchaAiSimulator backup = backup(SHORT)) {
      for (int i = 0; i < 1000; i++) {
        long a = primary.nowMillis();
        long b = backup.nowMillis();
        long c = primary.nowMillis();
        assertThat(b).isBetween(a, c);
      }
      assertThat(primary.name()).isEqualTo("captchaai");
      assertThat(backup.name()).isEqualTo("backup");
    }
  }

  @Test
  void aPricedKeysSpendMatchesItsAcceptedTasksExactlyUnderFiftyConcurrentSubmitters()
      throws Exception {
    try (CaptchaAiSimulator backup =
        CaptchaAiSimulator.builder()
            .account(BACKUP_KEY, KeyPlan.threads(7).price("TURNSTILE", "1.45"))
            .solveTime("turnstile", Duration.ofMillis(20), Duration.ofMillis(20))
            .build()
            .start()) {
      ApiClient client = new ApiClient(backup.baseUrl());
      ExecutorService pool = Executors.newFixedThreadPool(50);
      try {
        List<Callable<Integer>> submitters = new ArrayList<>();
        for (int s = 0; s < 50; s++) {
          int submitter = s;
          submitters.add(
              () -> {
                int accepted = 0;
                for (int i = 0; i < 6; i++) {
                  accepted +=
                      turnstile(client, BACKUP_KEY, "https://c/" + submitter + "/" + i)
                          .get("status")
                          .asInt();
                }
                return accepted;
              });
        }
        long accepted = 0;
        for (Future<Integer> f : pool.invokeAll(submitters)) {
          accepted += f.get();
        }
        assertThat(accepted).isPositive();
        assertThat(backup.stats().acceptedSubmits()).isEqualTo(accepted);
        assertThat(backup.stats().maxInFlight()).isEqualTo(7);
        List<SpendRecord> rows = backup.spend(BACKUP_KEY);
        assertThat(rows.stream().mapToLong(SpendRecord::tasks).sum()).isEqualTo(accepted);
        assertThat(rows.stream().map(SpendRecord::amount).reduce(BigDecimal.ZERO, BigDecimal::add))
            .isEqualByComparingTo(
                KeyBilling.perTask(bd("1.45")).multiply(BigDecimal.valueOf(accepted)));
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void aKeyOfItsOwnQueueModeQueuesWhileAnotherKeyOfTheSameSimulatorRefuses() {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(PRIMARY_KEY, 1)
            .account(POOL_KEY, KeyPlan.threads(1).overCapMode(OverCapMode.QUEUE))
            .solveTime("turnstile", LONG, LONG)
            .build()
            .start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      turnstile(client, PRIMARY_KEY, "https://a/1");
      assertThat(code(turnstile(client, PRIMARY_KEY, "https://a/2")))
          .isEqualTo("ERROR_ZERO_BALANCE");
      turnstile(client, POOL_KEY, "https://b/1");
      assertThat(turnstile(client, POOL_KEY, "https://b/2").get("status").asInt()).isEqualTo(1);
      assertThat(sim.tasks(POOL_KEY))
          .extracting(TaskRecord::workedOn)
          .containsExactly(true, false); // the second waits for the key's one thread
      assertThat(sim.stats(POOL_KEY).maxInFlight()).isEqualTo(1);
      assertThat(client.resJson(POOL_KEY, "action", "threadsinfo").get("threads").asString())
          .isEqualTo("1");
    }
  }

  static BigDecimal bd(String value) {
    return new BigDecimal(value);
  }
}

package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class BenchOptionsTest {

  @Test
  void noOptionsAreTheDefaultModesDefaults() {
    BenchOptions o = BenchOptions.parse();
    assertThat(o).isEqualTo(BenchOptions.defaults());
    assertThat(o.solves()).isEqualTo(300);
    assertThat(o.workers()).isEqualTo(3);
    assertThat(o.threads()).isEqualTo(10);
    assertThat(o.planThreads()).isEqualTo(12);
    assertThat(o.mix()).hasToString("TURNSTILE:0.6,RECAPTCHA_V2:0.3,IMAGE:0.1");
    assertThat(o.timeScale()).isEqualTo(0.2);
    assertThat(o.out()).isEqualTo(Path.of("docs", "bench"));
    assertThat(o.killEvery()).isEqualTo(Duration.ofSeconds(20));
    assertThat(o.timeout()).isEqualTo(Duration.ofMinutes(15));
    assertThat(o.workerHeap()).isEqualTo("512m");
  }

  @Test
  void pushIsOnByDefaultLikeTheSandboxAndNoPushRunsPollingOnly() {
    assertThat(BenchOptions.parse().push()).isTrue();
    assertThat(BenchOptions.parse("--mode", "chaos").push()).isTrue();
    BenchOptions polling = BenchOptions.parse("--mode", "default", "--no-push");
    assertThat(polling.push()).isFalse();
    assertThat(polling.commandLine()).contains(" --no-push");
    assertThat(BenchOptions.parse("--no-push", "--push").push()).isTrue();
    assertThat(BenchOptions.parse().commandLine()).doesNotContain("push");
  }

  @Test
  void workersStartFromTheFatJarUnlessWorkerCdsIsGivenAndTheCommandLineSaysWhich() {
    assertThat(BenchOptions.parse().workerCds()).isFalse();
    assertThat(BenchOptions.parse().commandLine()).doesNotContain("cds");
    BenchOptions cds = BenchOptions.parse("--mode", "chaos", "--worker-cds");
    assertThat(cds.workerCds()).isTrue();
    assertThat(cds.commandLine()).contains(" --worker-cds --out ");
  }

  @Test
  void aModeBringsItsOwnDefaultsAndGivenOptionsOverrideThem() {
    BenchOptions scale = BenchOptions.parse("--mode", "scale");
    assertThat(scale).isEqualTo(BenchOptions.forMode(BenchOptions.Mode.SCALE));
    assertThat(scale.threads()).isEqualTo(200);
    assertThat(scale.workerProps()).containsEntry("captchaai.min-first-poll-wait", "1s");

    BenchOptions o =
        BenchOptions.parse(
            "--mode=SCALE",
            "--threads",
            "50",
            "--scale-workers",
            "1,2,4",
            "--worker-prop",
            "captchaai.min-first-poll-wait=2s",
            "--worker-prop=a.b=c=d",
            "--kill-every",
            "1500ms",
            "--timeout=PT2M",
            "--solves",
            "10",
            "--solves",
            "20");
    assertThat(o.threads()).isEqualTo(50);
    assertThat(o.scaleWorkers()).containsExactly(1, 2, 4);
    assertThat(o.workerProps())
        .containsEntry("captchaai.min-first-poll-wait", "2s")
        .containsEntry("a.b", "c=d")
        .containsEntry("captchaai.learn-after-solves", "1000000");
    assertThat(o.killEvery()).isEqualTo(Duration.ofMillis(1500));
    assertThat(o.timeout()).isEqualTo(Duration.ofMinutes(2));
    assertThat(o.solves()).as("the last value of an option given twice").isEqualTo(20);
  }

  @Test
  void badValuesAreRejectedNamingTheOption() {
    for (List<String> args :
        List.of(
            List.of("--solves", "0"),
            List.of("--solves", "many"),
            List.of("--workers", "0"),
            List.of("--threads", "-1"),
            List.of("--mode", "fast"),
            List.of("--mix", "TURNSTILE:-1"),
            List.of("--time-scale", "0"),
            List.of("--fault-rate", "1.5"),
            List.of("--kill-every", "often"),
            List.of("--timeout", "soon"),
            List.of("--scale-workers", "1,0"),
            List.of("--worker-count", "0"),
            List.of("--pool-size", "0"),
            List.of("--worker-prop", "novalue"),
            List.of("--kill-after-solves", "-1"),
            List.of("--kill-after-solves", "300"),
            List.of("--kill-after-solves", "10", "--mode", "chaos"),
            List.of("--kill-after-solves", "10", "--workers", "1"),
            List.of("--pingback-drop", "1.5"),
            List.of("--pingback-duplicate", "-0.1"),
            List.of("--pingback-delay", "later"))) {
      String option = args.get(0);
      assertThatThrownBy(() -> BenchOptions.parse(args.toArray(String[]::new)))
          .as(String.join(" ", args))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(option);
    }
    assertThatThrownBy(() -> BenchOptions.parse("--solves")).hasMessageContaining("--solves");
    assertThatThrownBy(() -> BenchOptions.parse("stray")).hasMessage("unexpected argument 'stray'");
    assertThatThrownBy(() -> BenchOptions.parse("--solvs=3")).hasMessage("unknown option --solvs");
  }

  @Test
  void helpIsRequestedAndListsEveryOption() {
    assertThatThrownBy(() -> BenchOptions.parse("--solves", "3", "--help"))
        .isInstanceOf(BenchOptions.HelpRequested.class);
    assertThat(BenchOptions.usage())
        .contains(
            "java -jar tools/bench/target/captchajobs-bench.jar [options]",
            "--mode",
            "--solves",
            "--workers",
            "--threads",
            "--reserve",
            "--mix",
            "--time-scale",
            "--seed",
            "--jdbc-url",
            "--out",
            "--worker-jar",
            "--scale-workers",
            "--kill-every",
            "--fault-rate",
            "--permanent",
            "--timeout",
            "--worker-count",
            "--pool-size",
            "--worker-heap",
            "--worker-prop",
            "--backup-threads",
            "--backup-price",
            "--backup-budget",
            "--help");
  }

  @Test
  void aKillAfterSolvesRunSaysSoInItsCommandLine() {
    BenchOptions o = BenchOptions.parse("--solves", "40", "--kill-after-solves", "10");
    assertThat(o.killAfterSolves()).isEqualTo(10);
    assertThat(o.commandLine()).contains("--kill-after-solves 10");
    assertThat(BenchOptions.parse().killAfterSolves()).isZero();
  }

  @Test
  void pushFaultsReachTheRunAndItsCommandLine() {
    BenchOptions o =
        BenchOptions.parse(
            "--pingback-drop", "0.3", "--pingback-duplicate", "0.2", "--pingback-delay", "500ms");
    assertThat(o.pushFaults())
        .isEqualTo(new BenchOptions.PushFaults(0.3, 0.2, java.time.Duration.ofMillis(500)));
    String[] again =
        o.commandLine()
            .replace("java -jar tools/bench/target/captchajobs-bench.jar ", "")
            .split(" ");
    assertThat(BenchOptions.parse(again)).isEqualTo(o);
    assertThat(BenchOptions.parse().pushFaults().any()).isFalse();
  }

  @Test
  void aBackupIsOffByDefaultAndTheChaosCommandLineIsUnchanged() {
    BenchOptions chaos = BenchOptions.parse("--mode", "chaos");
    assertThat(chaos.backup()).isEqualTo(BackupPlan.NONE);
    assertThat(chaos.backup().configured()).isFalse();
    assertThat(chaos.commandLine()).doesNotContain("backup");
  }

  @Test
  void aBackupReachesTheRunItsWorkerPropertiesAndItsCommandLine() {
    BenchOptions o =
        BenchOptions.parse(
            "--mode",
            "chaos",
            "--backup-threads",
            "10",
            "--backup-price",
            "TURNSTILE:1.45,RECAPTCHA_V2:2.99,IMAGE:0.50",
            "--backup-budget",
            "5.00");
    BackupPlan b = o.backup();
    assertThat(b.threads()).isEqualTo(10);
    assertThat(b.planThreads()).as("its cap plus a reserve, as the primary's").isEqualTo(12);
    assertThat(b.pricesPer1000().get("TURNSTILE")).isEqualByComparingTo("1.45");
    assertThat(b.dailyBudget()).isEqualByComparingTo("5.00");
    assertThat(b.keyPlan().threads()).isEqualTo(12);
    assertThat(b.keyPlan().pricesPer1000()).hasSize(3);
    assertThat(b.keyPlan().balance()).as("the budget is the engine's, not the account's").isNull();

    assertThat(b.workerProps("http://127.0.0.1:4242"))
        .containsExactlyInAnyOrderEntriesOf(
            java.util.Map.of(
                "captchajobs.providers.backup.base-url", "http://127.0.0.1:4242",
                "captchajobs.providers.backup.threads", "10",
                "captchajobs.providers.backup.role", "backup",
                "captchajobs.providers.backup.price.TURNSTILE", "1.45",
                "captchajobs.providers.backup.price.RECAPTCHA_V2", "2.99",
                "captchajobs.providers.backup.price.IMAGE", "0.50",
                "captchajobs.providers.backup.daily-budget", "5.00"));
    assertThat(b.workerProps("http://x").values())
        .as("the key goes by the environment only")
        .doesNotContain(BackupPlan.API_KEY);
    assertThat(BackupPlan.API_KEY).hasSize(32).doesNotStartWith(BenchRun.API_KEY.substring(0, 4));
    assertThat(BackupPlan.KEY_ENV).isEqualTo("CAPTCHAJOBS_PROVIDERS_BACKUP_APIKEY");

    assertThat(o.commandLine())
        .contains(
            " --backup-threads 10 --backup-price IMAGE:0.50,RECAPTCHA_V2:2.99,TURNSTILE:1.45"
                + " --backup-budget 5.00");
    String[] again =
        o.commandLine()
            .replace("java -jar tools/bench/target/captchajobs-bench.jar ", "")
            .split(" ");
    assertThat(BenchOptions.parse(again)).isEqualTo(o);
  }

  @Test
  void badBackupOptionsAreRejectedNamingTheOption() {
    for (List<String> args :
        List.of(
            List.of("--backup-threads", "10"),
            List.of("--backup-threads", "-1", "--mode", "chaos"),
            List.of("--backup-price", "TURNSTILE:1", "--mode", "chaos"),
            List.of("--backup-budget", "5", "--mode", "chaos"),
            List.of("--backup-price", "CAPTCHA:1", "--mode", "chaos", "--backup-threads", "2"),
            List.of("--backup-price", "TURNSTILE:-1", "--mode", "chaos", "--backup-threads", "2"),
            List.of("--backup-price", "TURNSTILE", "--mode", "chaos", "--backup-threads", "2"),
            List.of("--backup-budget", "lots", "--mode", "chaos", "--backup-threads", "2"))) {
      String option = args.get(0);
      assertThatThrownBy(() -> BenchOptions.parse(args.toArray(String[]::new)))
          .as(String.join(" ", args))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(option);
    }
  }

  @Test
  void theCommandLineOfTheReportParsesBackToTheSameRun() {
    BenchOptions chaos =
        BenchOptions.parse("--mode", "chaos", "--kill-every", "15s", "--fault-rate", "0.2");
    String[] again =
        chaos
            .commandLine()
            .replace("java -jar tools/bench/target/captchajobs-bench.jar ", "")
            .split(" ");
    assertThat(BenchOptions.parse(again)).isEqualTo(chaos);
  }
}

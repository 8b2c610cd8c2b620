package com.captchajobs.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The JUnit 5 form of a primary and a backup provider: two extensions, two simulators. */
@Tag("unit")
class PrimaryAndBackupExtensionsTest {
  static final String PRIMARY_KEY = TwoProvidersTest.PRIMARY_KEY;
  static final String BACKUP_KEY = TwoProvidersTest.BACKUP_KEY;
  static final Duration SOLVE = Duration.ofSeconds(60);

  @RegisterExtension
  static final SimulatorExtension primary =
      new SimulatorExtension(
          CaptchaAiSimulator.builder()
              .account(PRIMARY_KEY, 1)
              .solveTime("turnstile", SOLVE, SOLVE));

  @RegisterExtension
  static final SimulatorExtension backup =
      new SimulatorExtension(
          CaptchaAiSimulator.builder()
              .name("backup")
              .seed(2)
              .account(BACKUP_KEY, KeyPlan.threads(1).price("TURNSTILE", "1.45"))
              .solveTime("turnstile", SOLVE, SOLVE));

  @Test
  void twoExtensionsRunAPrimaryAndABackupOnTwoPortsWithDisjointTaskIds() {
    ApiClient atPrimary = new ApiClient(primary.get().baseUrl());
    ApiClient atBackup = new ApiClient(backup.get().baseUrl());
    assertThat(primary.get().port()).isNotEqualTo(backup.get().port());

    String p =
        TwoProvidersTest.code(TwoProvidersTest.turnstile(atPrimary, PRIMARY_KEY, "https://x/1"));
    String b =
        TwoProvidersTest.code(TwoProvidersTest.turnstile(atBackup, BACKUP_KEY, "https://x/1"));
    assertThat(p).isNotEqualTo(b);
    // a task id polled at the wrong provider is unknown there
    assertThat(TwoProvidersTest.code(atBackup.poll(BACKUP_KEY, p)))
        .isEqualTo("ERROR_WRONG_CAPTCHA_ID");
    assertThat(primary.get().tasks())
        .extracting(TaskRecord::keyFingerprint)
        .containsExactly("prim…");
    assertThat(backup.get().tasks())
        .extracting(TaskRecord::keyFingerprint)
        .containsExactly("back…");
    assertThat(primary.get().spend()).isEmpty();
    assertThat(backup.get().spend())
        .singleElement()
        .satisfies(r -> assertThat(r.tasks()).isEqualTo(1));
  }
}

package com.captchajobs.core.internal.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaAiApiException;
import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.CaptchaAiTransportException;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.gate.GateTestDatabase;
import com.captchajobs.core.internal.gate.ProviderLanes;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.testing.Sql;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The providers of a worker (docs/providers.md) on real PostgreSQL: which provider a solve's name
 * leads to, which failures count as server trouble towards the primary judged down, and when no
 * provider can take a solve.
 */
class ProvidersTest {

  HikariDataSource dataSource;
  Sql jdbc;
  Breaker primaryBreaker;
  Breaker backupBreaker;
  Providers.Provider primary;
  Providers.Provider backup;
  Providers providers;

  @BeforeEach
  void freshDatabase() {
    dataSource = GateTestDatabase.fresh();
    jdbc = new Sql(dataSource);
    primaryBreaker = new Breaker(dataSource, Schema.defaultSchema(), "primary-fp");
    backupBreaker = new Breaker(dataSource, Schema.defaultSchema(), "backup-fp");
    FleetGate gate =
        GateTestDatabase.gate(
            dataSource,
            2,
            new ProviderLanes.Lane(
                "backup", true, 2, "backup-fp", Duration.ofSeconds(30), Map.of(), null));
    primary = new Providers.Provider(ProviderLanes.PRIMARY, null, null, primaryBreaker, null);
    backup = new Providers.Provider("backup", null, null, backupBreaker, null);
    providers = new Providers(primary, List.of(backup), gate.lanes(), null);
  }

  @AfterEach
  void closePool() {
    dataSource.close();
  }

  @Test
  void aSolveNamingNoProviderOrOneThisNodeWasNotGivenIsAskedAtThePrimary() {
    assertThat(providers.get(null)).isSameAs(primary);
    assertThat(providers.get(ProviderLanes.PRIMARY)).isSameAs(primary);
    assertThat(providers.get("gone")).isSameAs(primary);
    assertThat(providers.get("backup")).isSameAs(backup);
    assertThat(providers.all()).containsExactly(primary, backup);
    assertThat(providers.hasOthers()).isTrue();
  }

  @Test
  void theProvidersOwnServerErrorsAndTransportErrorsAreServerTroubleButRequestErrorsAreNot() {
    assertThat(Providers.serverTrouble(transport())).isTrue();
    assertThat(Providers.serverTrouble(new CaptchaAiApiException("ERROR_SERVER_ERROR", null)))
        .isTrue();
    assertThat(
            Providers.serverTrouble(new CaptchaAiApiException("ERROR_INTERNAL_SERVER_ERROR", null)))
        .isTrue();
    assertThat(Providers.serverTrouble(new CaptchaAiApiException("ERROR_NO_SLOT_AVAILABLE", null)))
        .isFalse();
    assertThat(Providers.serverTrouble(new CaptchaAiApiException("ERROR_WRONG_USER_KEY", null)))
        .isFalse();
    assertThat(Providers.serverTrouble(null)).as("a real answer").isFalse();
  }

  @Test
  void aRunOfServerTroubleAtThePrimaryJudgesItDownAndARealAnswerEndsIt() {
    for (int i = 0; i < ProviderLanes.DOWN_FAILURES; i++) {
      assertThatThrownBy(() -> providers.call(primary, this::failing))
          .isInstanceOf(CaptchaAiTransportException.class);
    }
    ageTheFailingRun(2); // the run now spans more than DOWN_AFTER
    assertThat(providers.primaryDown()).isTrue();

    assertThat(providers.call(primary, () -> "OK")).isEqualTo("OK");
    assertThat(providers.primaryDown()).isFalse();
  }

  @Test
  void serverTroubleAtABackupNeverJudgesThePrimaryDown() {
    for (int i = 0; i < ProviderLanes.DOWN_FAILURES + 2; i++) {
      assertThatThrownBy(() -> providers.call(backup, this::failing))
          .isInstanceOf(CaptchaAiTransportException.class);
    }
    ageTheFailingRun(2);

    assertThat(providers.primaryDown()).isFalse();
  }

  @Test
  void noProviderCanTakeASolveOnlyWhileEveryBreakerIsOpenAndThenThePrimarysIsNamed() {
    primaryBreaker.open("ERROR_KEY_DOES_NOT_EXIST", "in.php answered ERROR_KEY_DOES_NOT_EXIST");
    assertThat(providers.openEverywhere()).as("the backup still takes solves").isEmpty();

    backupBreaker.open("ERROR_WRONG_USER_KEY", "in.php answered ERROR_WRONG_USER_KEY");
    assertThat(providers.openEverywhere())
        .hasValueSatisfying(
            state -> assertThat(state.errorCode()).isEqualTo("ERROR_KEY_DOES_NOT_EXIST"));
  }

  @Test
  void theSolvesSlotIsAtThePrimaryUnlessTheGatePlacedItAtAnother() {
    assertThat(providers.slotOf(UUID.randomUUID())).isEqualTo(ProviderLanes.PRIMARY);
    Providers alone = Providers.single(null, primaryBreaker, null);
    assertThat(alone.slotOf(UUID.randomUUID())).isEqualTo(ProviderLanes.PRIMARY);
    assertThat(alone.hasOthers()).isFalse();
    assertThat(alone.primaryDown()).as("nothing to route to: never judged").isFalse();
    assertThat(alone.threadsInfo()).as("no plan check").isEmpty();
  }

  private String failing() {
    throw transport();
  }

  private static CaptchaAiException transport() {
    return new CaptchaAiTransportException(
        CaptchaAiTransportException.httpCode(502), null, "HTML page", null);
  }

  /** Moves the primary's failing run {@code seconds} into the past, as if that time had passed. */
  private void ageTheFailingRun(int seconds) {
    jdbc.update(
        "UPDATE captchajobs.provider_health SET failing_since = failing_since - ? * interval"
            + " '1 second' WHERE name = ?",
        seconds,
        ProviderLanes.PRIMARY);
  }
}

package com.captchajobs.core.internal.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.testing.Sql;
import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The routing rule of {@link ProviderLanes} on real PostgreSQL (docs/providers.md): whose slot a
 * waiting solve takes, each provider's cap, its breaker and its daily budget. When the primary is
 * judged down is {@link PrimaryDownTest}'s.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProviderLanesTest {

  private static final BigDecimal ONE = new BigDecimal("1.00");

  HikariDataSource dataSource;
  Sql jdbc;
  FleetGate gate;
  ProviderLanes lanes;

  /** A fresh database whose gate has one primary slot and the given providers beside it. */
  private void gateWith(ProviderLanes.Lane... others) {
    dataSource = GateTestDatabase.fresh();
    jdbc = new Sql(dataSource);
    gate = GateTestDatabase.gate(dataSource, 1, others);
    lanes = gate.lanes();
  }

  @AfterEach
  void closePool() {
    if (dataSource != null) {
      dataSource.close();
    }
  }

  private static ProviderLanes.Lane pool(String name, int threads) {
    return new ProviderLanes.Lane(
        name, false, threads, name + "-fp", Duration.ofSeconds(30), Map.of(), null);
  }

  private static ProviderLanes.Lane backup(
      int threads, Duration overflowAfter, BigDecimal priceOfATurnstile, BigDecimal budget) {
    Map<CaptchaType, BigDecimal> prices =
        priceOfATurnstile == null ? Map.of() : Map.of(CaptchaType.TURNSTILE, priceOfATurnstile);
    return new ProviderLanes.Lane(
        "backup", true, threads, "backup-fp", overflowAfter, prices, budget);
  }

  @Test
  void aWaitingSolveTakesThePrimarysSlotFirstThenAPoolProvidersAndABackupsOnlyAfterItWaited() {
    gateWith(pool("pool", 1), backup(1, Duration.ofSeconds(30), null, null));
    UUID first = waitingSolve();
    UUID second = waitingSolve();
    UUID third = waitingSolve();

    assertThat(gate.dispatch()).hasSize(2);

    assertThat(lanes.providerOf(first)).contains(ProviderLanes.PRIMARY);
    assertThat(lanes.providerOf(second)).contains("pool");
    assertThat(lanes.providerOf(third)).as("waited less than the backup's 30 s").isEmpty();
    assertThat(status(third)).isEqualTo("WAITING_FOR_THREAD");

    waitedFor(third, 31);
    assertThat(gate.dispatch()).hasSize(1);
    assertThat(lanes.providerOf(third)).contains("backup");
    assertThat(
            jdbc.queryForObject(
                "SELECT provider FROM captchajobs.solve WHERE id = ?", String.class, third))
        .isEqualTo("backup");
  }

  @Test
  void eachProviderTakesNoMoreSolvesThanItsThreads() {
    gateWith(pool("pool", 2));
    for (int i = 0; i < 5; i++) {
      waitingSolve();
    }

    assertThat(gate.dispatch()).hasSize(3);

    assertThat(heldBy(ProviderLanes.PRIMARY)).isEqualTo(1);
    assertThat(heldBy("pool")).isEqualTo(2);
    assertThat(gate.dispatch()).as("every slot is taken").isEmpty();
  }

  @Test
  void aProviderWhoseBreakerIsOpenTakesNoSolve() {
    gateWith(pool("pool", 2));
    jdbc.update(
        "INSERT INTO captchajobs.breaker (key_fingerprint, open, error_code, opened_at)"
            + " VALUES ('pool-fp', true, 'ERROR_WRONG_USER_KEY', now())");
    waitingSolve();
    UUID second = waitingSolve();

    assertThat(gate.dispatch()).hasSize(1);

    assertThat(heldBy("pool")).isZero();
    assertThat(status(second)).isEqualTo("WAITING_FOR_THREAD");
  }

  @Test
  void aBackupTakesNoSolveWhosePriceWouldPassItsDailyBudgetUntilTheOperatorRaisesIt() {
    gateWith(backup(5, Duration.ZERO, ONE, new BigDecimal("2.50")));
    waitingSolve(); // the primary's one slot
    UUID second = waitingSolve();
    UUID third = waitingSolve();
    UUID fourth = waitingSolve();

    assertThat(gate.dispatch()).hasSize(3);

    assertThat(lanes.providerOf(second)).contains("backup");
    assertThat(lanes.providerOf(third)).contains("backup");
    // 1.00 + 1.00 held without a task yet, and 1.00 more would make 3.00 > 2.50
    assertThat(lanes.providerOf(fourth)).isEmpty();
    assertThat(status(fourth)).as("it waits, it does not fail").isEqualTo("WAITING_FOR_THREAD");

    jdbc.update("UPDATE captchajobs.gate_provider SET operator_budget = 10 WHERE name = 'backup'");
    assertThat(gate.dispatch()).hasSize(1);
    assertThat(lanes.providerOf(fourth)).contains("backup");
  }

  @Test
  void todaysSpendCountsAgainstTheBudgetAndYesterdaysDoesNot() {
    gateWith(backup(5, Duration.ZERO, ONE, new BigDecimal("2.00")));
    waitingSolve(); // the primary's one slot
    UUID second = waitingSolve();
    spent("(now() AT TIME ZONE 'UTC')::date", "1.50");

    assertThat(gate.dispatch()).hasSize(1);
    assertThat(lanes.providerOf(second)).as("1.50 spent today + 1.00 > 2.00").isEmpty();

    jdbc.update("DELETE FROM captchajobs.provider_spend");
    spent("(now() AT TIME ZONE 'UTC')::date - 1", "1.50");
    assertThat(gate.dispatch()).hasSize(1);
    assertThat(lanes.providerOf(second)).contains("backup");
  }

  @Test
  void resizeRecordsEachProvidersRoleCapacityPricesAndSlots() {
    gateWith(pool("pool", 2), backup(3, Duration.ofSeconds(30), ONE, new BigDecimal("5.00")));

    assertThat(
            jdbc.queryForObject(
                "SELECT role || ' ' || capacity || ' ' || key_fingerprint || ' ' ||"
                    + " (prices->>'TURNSTILE') || ' ' || daily_budget"
                    + " FROM captchajobs.gate_provider WHERE name = 'backup'",
                String.class))
        .isEqualTo("BACKUP 3 backup-fp 1.00 5.00");
    assertThat(
            jdbc.queryForObject(
                "SELECT role || ' ' || capacity || ' ' || prices::text"
                    + " FROM captchajobs.gate_provider WHERE name = 'pool'",
                String.class))
        .isEqualTo("POOL 2 {}");
    assertThat(slots("backup")).isEqualTo(3);
    assertThat(slots("pool")).isEqualTo(2);
  }

  private UUID waitingSolve() {
    return GateTestDatabase.waitingSolve(jdbc, "lanes-");
  }

  /** Moves the solve's wait {@code seconds} into the past, as if it had waited that long. */
  private void waitedFor(UUID id, int seconds) {
    jdbc.update(
        "UPDATE captchajobs.solve SET waiting_since = now() - ? * interval '1 second' WHERE id = ?",
        seconds,
        id);
  }

  private void spent(String day, String amount) {
    jdbc.update(
        "INSERT INTO captchajobs.provider_spend (provider, day, type, solves, amount)"
            + " VALUES ('backup', "
            + day
            + ", 'TURNSTILE', 1, ?::numeric)",
        amount);
  }

  private String status(UUID id) {
    return jdbc.queryForObject(
        "SELECT status FROM captchajobs.solve WHERE id = ?", String.class, id);
  }

  private int heldBy(String provider) {
    return jdbc.queryForObject(
        "SELECT count(*)::int FROM captchajobs.gate_slot WHERE provider = ? AND solve_id IS NOT NULL",
        Integer.class,
        provider);
  }

  private int slots(String provider) {
    return jdbc.queryForObject(
        "SELECT count(*)::int FROM captchajobs.gate_slot WHERE provider = ?",
        Integer.class,
        provider);
  }
}

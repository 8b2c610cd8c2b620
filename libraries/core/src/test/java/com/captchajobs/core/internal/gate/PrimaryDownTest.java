package com.captchajobs.core.internal.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.Sql;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * When the gate judges the primary down ({@link ProviderLanes#primaryDown}, docs/providers.md), on
 * real PostgreSQL: a run of server trouble across the fleet, never one isolated fault, and one
 * probing solve once the run has gone quiet. The rule's times are shifted in the table rather than
 * waited out, so every case is decided by the rule alone.
 */
@Execution(ExecutionMode.CONCURRENT)
class PrimaryDownTest {

  HikariDataSource dataSource;
  Sql jdbc;
  FleetGate gate;
  ProviderLanes lanes;

  @BeforeEach
  void freshDatabase() {
    dataSource = GateTestDatabase.fresh();
    jdbc = new Sql(dataSource);
    gate =
        GateTestDatabase.gate(
            dataSource,
            2,
            new ProviderLanes.Lane(
                "backup", true, 2, "backup-fp", Duration.ofSeconds(30), Map.of(), null));
    lanes = gate.lanes();
  }

  @AfterEach
  void closePool() {
    dataSource.close();
  }

  /** Moves the primary's failing run {@code seconds} into the past, as if that time had passed. */
  private void age(String column, int seconds) {
    jdbc.update(
        "UPDATE captchajobs.provider_health SET "
            + column
            + " = "
            + column
            + " - ? * interval '1 second' WHERE name = 'captchaai'",
        seconds);
  }

  private void failures(int n) {
    for (int i = 0; i < n; i++) {
      lanes.answered(ProviderLanes.PRIMARY, true);
    }
  }

  @Test
  void oneIsolatedFaultNeverJudgesThePrimaryDownHoweverLongNoCallFollowsIt() {
    failures(1);
    // 25 s without another call (the old rule: down after 20 s of only server trouble)
    age("failing_since", 25);
    age("last_failure_at", 5);

    assertThat(lanes.primaryDown()).isFalse();
    UUID solve = waitingSolve();
    assertThat(gate.dispatch()).hasSize(1);
    assertThat(lanes.providerOf(solve)).contains(ProviderLanes.PRIMARY);
  }

  @Test
  void fiveServerErrorsInARowOverASecondJudgeThePrimaryDownAndARealAnswerEndsIt() {
    failures(ProviderLanes.DOWN_FAILURES);
    assertThat(lanes.primaryDown()).as("a burst within a moment is not an outage").isFalse();

    age("failing_since", 2); // the first of them 2 s ago, the last just now
    assertThat(lanes.primaryDown()).isTrue();
    UUID solve = waitingSolve();
    assertThat(gate.dispatch()).hasSize(1);
    assertThat(lanes.providerOf(solve)).contains("backup");

    lanes.answered(ProviderLanes.PRIMARY, false); // a real answer
    assertThat(lanes.primaryDown()).isFalse();
    failures(ProviderLanes.DOWN_FAILURES - 1);
    age("failing_since", 2);
    assertThat(lanes.primaryDown()).as("the run starts again from one").isFalse();
  }

  @Test
  void aQuietFailingRunLetsOneSolveProbeThePrimaryWhileTheOthersGoToTheBackup() {
    failures(ProviderLanes.DOWN_FAILURES);
    age("failing_since", 60);
    age("last_failure_at", (int) ProviderLanes.PROBE_AFTER.toSeconds() + 1);
    UUID probe = waitingSolve();
    UUID other = waitingSolve();

    assertThat(gate.dispatch()).hasSize(2);

    assertThat(lanes.providerOf(probe)).contains(ProviderLanes.PRIMARY);
    assertThat(lanes.providerOf(other)).contains("backup");
    assertThat(lanes.primaryDown()).as("the probe itself goes on to call in.php").isFalse();
    // the probe met the 502 too: down again, no new probe before PROBE_AFTER
    lanes.answered(ProviderLanes.PRIMARY, true);
    assertThat(lanes.primaryDown()).isTrue();
  }

  private UUID waitingSolve() {
    return GateTestDatabase.waitingSolve(jdbc, "down-");
  }
}

package com.example.hostcontract;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SimulatorProcess;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Host first: the host meets a fresh database, then a worker node joins it. What every host module
 * checks in this order; a module adds its own tests.
 */
public abstract class HostFirstContract extends HostWithAWorkerNode {

  protected HostFirstContract(
      String key, String workerName, String solvePrefix, Class<?> application) {
    super(key, workerName, solvePrefix, application);
  }

  @BeforeAll
  protected void startTheHostThenAWorkerNode() {
    simulator = SimulatorProcess.start(key, 2, 0.1);
    String url = EmbeddedPostgresSupport.newDatabase();
    host = startHost(url);
    jdbc = new JdbcTemplate(host.getBean(DataSource.class));
    worker = startAWorkerNode(url);
  }

  @AfterAll
  protected void stop() throws Exception {
    Hosts.closeInOrder(worker, host, simulator);
  }

  @Test
  protected void theHostsFlywayHistoryHoldsOnlyItsOwnMigrationAndNoTableOfOursIsInPublic() {
    Hosts.assertTheHostsFlywayHistoryHoldsOnlyItsOwnMigration(jdbc);
    assertThat(
            jdbc.queryForList(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                    + " AND (table_name LIKE 'cj\\_%' OR table_name LIKE 'captchajobs%')",
                String.class))
        .isEmpty();
  }

  @Test
  protected void aGuestThatLeavesTheDashboardOffCarriesNoClassOfTheConsole() {
    Hosts.assertNoConsoleClassIsOnTheClassPath(host);
  }

  /** The host's own job ran on its own server, in its own tables, and did its work. */
  protected final void assertTheHostsOwnJobRunsOnItsOwnServerInItsOwnTables() {
    UUID id = runTheHostsOwnJob("first-1");

    assertThat(count("SELECT count(*) FROM public.jobrunr_jobs WHERE id = ?", id.toString()))
        .isOne();
    assertThat(
            count("SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE id = ?", id.toString()))
        .isZero();
    assertThat(count("SELECT count(*) FROM public.host_order WHERE reference = ?", "first-1"))
        .isOne();
  }
}

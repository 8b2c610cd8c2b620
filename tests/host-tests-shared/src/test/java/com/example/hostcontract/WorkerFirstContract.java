package com.example.hostcontract;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SimulatorProcess;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Worker first: a worker node created our schema on a fresh database, then the host starts with no
 * setting at all. What every host module checks in this order; a module adds its own tests.
 */
public abstract class WorkerFirstContract extends HostWithAWorkerNode {

  protected WorkerFirstContract(
      String key, String workerName, String solvePrefix, Class<?> application) {
    super(key, workerName, solvePrefix, application);
  }

  @BeforeAll
  protected void startAWorkerNodeThenTheHost() {
    simulator = SimulatorProcess.start(key, 2, 0.1);
    String url = EmbeddedPostgresSupport.newDatabase();
    worker = startAWorkerNode(url);
    host = startHost(url);
    jdbc = new JdbcTemplate(host.getBean(DataSource.class));
  }

  @AfterAll
  protected void stop() throws Exception {
    Hosts.closeInOrder(host, worker, simulator);
  }

  @Test
  protected void theHostsFlywayStartsAsIfWeWereNotThere() {
    Hosts.assertTheHostsFlywayHistoryHoldsOnlyItsOwnMigration(jdbc);
  }

  /** The host's JobRunr, with no table prefix set, made its own tables in {@code public}. */
  protected final void assertTheHostsJobRunrCreatedItsOwnTablesInPublicWithNoSetting() {
    assertThat(host.getEnvironment().getProperty("jobrunr.database.table-prefix")).isNull();
    Hosts.assertTheHostsJobRunrTablesAreInPublic(jdbc);
  }

  /** The host's own job did its work. */
  protected final void assertTheHostRecorded(String reference) {
    assertThat(count("SELECT count(*) FROM public.host_order WHERE reference = ?", reference))
        .isOne();
  }
}

package com.example.hostcontract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Host first, for a host that added one of our starters: the guest rules, each checked once. */
public abstract class StarterHostFirstContract extends HostFirstContract {

  protected StarterHostFirstContract(
      String key, String workerName, String solvePrefix, Class<?> application) {
    super(key, workerName, solvePrefix, application);
  }

  @Test
  protected void aSolveIsSolvedByTheWorkerNodeAndNeverRunsOnTheHostsJobRunrServer()
      throws Exception {
    UUID id = solveAndClaim(solvePrefix + "-first-1", "first-1");

    assertOneSubmitAndTheSolvesJobsInOurTables(id);
    assertNoJobOfOursIsInTheHostsTables();
    Hosts.assertOurJobsRanOnlyOn(jdbc, workerName);
    Hosts.assertTheHostsOneJobRunrServerIsItsOwn(host, workerName);
  }

  @Test
  protected void theHostsActuatorShowsExactlyWhatItDidBefore() throws Exception {
    assertThat(Hosts.statusOf(host, "/actuator/metrics")).isEqualTo(404);
    assertThat(Hosts.statusOf(host, "/actuator/breaker")).isEqualTo(404);
    assertThat(Hosts.statusOf(host, "/actuator/health")).isEqualTo(200);
  }
}

package com.example.hostcontract;

import org.junit.jupiter.api.Test;

/** Worker first, for a host that added one of our starters. */
public abstract class StarterWorkerFirstContract extends WorkerFirstContract {

  protected StarterWorkerFirstContract(
      String key, String workerName, String solvePrefix, Class<?> application) {
    super(key, workerName, solvePrefix, application);
  }

  @Test
  protected void theHostsJobRunrCreatesItsOwnTablesInPublicWithNoSettingAndRunsItsJob() {
    assertTheHostsJobRunrCreatedItsOwnTablesInPublicWithNoSetting();

    runTheHostsOwnJob("after-1");
    assertTheHostRecorded("after-1");
  }

  @Test
  protected void aSolveEnqueuedThroughTheStarterIsSolvedByTheWorkerNode() throws Exception {
    solveAndClaim(solvePrefix + "-after-1", "after-1");

    assertNoJobOfOursIsInTheHostsTables();
  }
}

package com.example.boot35;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Solves;
import com.captchajobs.core.TokenAlreadyClaimedException;
import com.example.hostcontract.HostFirstContract;
import com.example.hostcontract.Hosts;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Boot 3.5 + JobRunr 8.4 host with the plain-Java core, host first: it meets a fresh database, then
 * a worker node (the real jar, in its own JVM) joins it. Adds to {@link HostFirstContract}.
 */
class Boot35HostFirstTest extends HostFirstContract {

  static final String KEY = "b35first0b35first0b35first0b35fi";
  static final String WORKER = "boot35-first-worker";

  Boot35HostFirstTest() {
    super(KEY, WORKER, "b35", Boot35HostApplication.class);
  }

  @Test
  void theHostKeepsItsOwnJobRunr84AndItsCaptchaJobsBeanOnlyEnqueues() {
    assertThat(Hosts.jobRunrVersion()).isEqualTo("8.4.0");
    assertThat(host.getBean(CaptchaJobs.class).runsWorker()).isFalse();
  }

  @Test
  void theHostsOwnJobRunsOnItsOwnServerInItsOwnTables() {
    assertTheHostsOwnJobRunsOnItsOwnServerInItsOwnTables();
  }

  @Override
  @Test
  protected void theHostsFlywayHistoryHoldsOnlyItsOwnMigrationAndNoTableOfOursIsInPublic() {
    super.theHostsFlywayHistoryHoldsOnlyItsOwnMigrationAndNoTableOfOursIsInPublic();
    assertThat(count("SELECT count(*) FROM captchajobs.schema_history")).isPositive();
  }

  @Test
  void aSolveEnqueuedThroughTheCoreIsSolvedByTheWorkerNodeAndClaimedOnce() throws Exception {
    UUID id = solveAndClaim("b35-first-1", "first-1");

    assertThatThrownBy(() -> host.getBean(Solves.class).claim(id))
        .isInstanceOf(TokenAlreadyClaimedException.class);
    assertOneSubmitAndTheSolvesJobsInOurTables(id);
    assertThat(
            count(
                "SELECT count(*) FROM public.jobrunr_jobs WHERE jobasjson LIKE ?", "%" + id + "%"))
        .isZero();
    Hosts.assertOurJobsRanOnlyOn(jdbc, WORKER);
  }
}

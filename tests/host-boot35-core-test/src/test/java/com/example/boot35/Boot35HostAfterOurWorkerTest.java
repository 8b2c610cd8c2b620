package com.example.boot35;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.worker.testing.WorkerProcess;
import com.example.hostcontract.Hosts;
import com.example.hostcontract.WorkerFirstContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Boot 3.5 + JobRunr 8.4 host with the plain-Java core, worker first: a worker node created our
 * schema on a fresh database, then the host starts with no setting at all. The worker node runs on
 * JDK 25 where the machine has one. Adds to {@link WorkerFirstContract}.
 */
class Boot35HostAfterOurWorkerTest extends WorkerFirstContract {

  static final String KEY = "b35after0b35after0b35after0b35af";
  static final String WORKER = "boot35-after-worker";

  /** A JDK 25 where CI machines have one; this variant runs the worker node on it. */
  static final Path JAVA_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

  private Path workerJava;

  Boot35HostAfterOurWorkerTest() {
    super(KEY, WORKER, "b35", Boot35HostApplication.class);
  }

  /** {@link #JAVA_25} if this machine has it, else the Java running this test. */
  @Override
  protected Path workerJava() {
    workerJava = Files.isExecutable(JAVA_25) ? JAVA_25 : WorkerProcess.currentJava();
    System.out.println(
        "The worker node of the worker-first Boot 3.5 variant runs on " + workerJava);
    return workerJava;
  }

  @Test
  void theHostsJobRunrCreatesItsOwnTablesInPublicWithNoSettingAndRunsItsJob() {
    assertTheHostsJobRunrCreatedItsOwnTablesInPublicWithNoSetting();

    UUID id = runTheHostsOwnJob("after-1");
    assertThat(count("SELECT count(*) FROM public.jobrunr_jobs WHERE id = ?", id.toString()))
        .isOne();
    assertTheHostRecorded("after-1");
  }

  @Test
  void aSolveEnqueuedByTheHostIsSolvedByTheWorkerNodeOnTheChosenJava() throws Exception {
    solveAndClaim("b35-after-1", "after-1");

    Hosts.assertOurJobsRanOnlyOn(jdbc, WORKER);
    String expectedJava = workerJava.equals(JAVA_25) ? "25" : runningJavaFeature();
    assertThat(Files.readString(worker.log().toPath())).contains("using Java " + expectedJava);
  }

  private static String runningJavaFeature() {
    return Integer.toString(Runtime.version().feature());
  }
}

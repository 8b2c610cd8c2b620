package com.captchajobs.bench;

import com.captchajobs.simulator.SimulatorStats;
import com.captchajobs.simulator.TaskRecord;
import java.util.List;
import java.util.Map;

/** Everything a finished run left behind, read before the processes exit. */
record RunData(
    BenchOptions options,
    String label,
    long startMillis,
    long endMillis,
    boolean timedOut,
    SimulatorStats stats,
    List<TaskRecord> tasks,
    List<Rows.Solve> solves,
    List<Rows.Poll> polls,
    List<Double> handoffSeconds,
    List<Double> enqueueToSubmitSeconds,
    long jobrunrJobs,
    long sqlStatements,
    List<Rows.JobHistory> permanentJobs,
    List<Sampler.Sample> samples,
    List<Node> nodes,
    double postgresCpuSeconds,
    double benchCpuSeconds,
    double machineBusyShare,
    Chaos.Events chaos,
    long lostResponses,
    Map<String, Long> permanentAnswers,
    List<Rows.Unfinished> stuck,
    java.util.Set<String> learntTaskIds,
    Map<String, String> pgSettings,
    Map<String, String> givenUpTaskIds) {

  /** A worker node as it ended: killed by the chaos or stopped at the end. */
  record Node(
      String name, double cpuSeconds, double peakRssMiB, double aliveSeconds, boolean killed) {}
}

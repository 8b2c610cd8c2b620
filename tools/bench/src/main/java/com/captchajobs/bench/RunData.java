package com.captchajobs.bench;

import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.SimulatorStats;
import com.captchajobs.simulator.SpendRecord;
import com.captchajobs.simulator.TaskRecord;
import java.util.List;
import java.util.Map;

/**
 * Everything a finished run left behind, read before the processes exit.
 *
 * <p>The provider's side ({@code stats}, {@code tasks}, {@code requests}, {@code pushes}) and the
 * harness's own records ({@code enqueuedAt}, {@code labels}, {@code chaos}) are what the judging
 * figures are counted from ({@link ProviderLedger}). The engine's rows ({@code solves}, {@code
 * polls}, ...) give the final status of every solve and a few diagnostics only.
 *
 * @param requests the simulator's request log
 * @param pushes the simulator's push log
 * @param enqueuedAt subject (page URL or image hash, {@link TypeMix#subject}) to when the harness
 *     enqueued that solve; solves the provider rejects by design are left out
 * @param labels subject to business key, for naming them in the report
 * @param permanentRequests solves the harness asked the provider to reject permanently
 */
record RunData(
    BenchOptions options,
    String label,
    long startMillis,
    long endMillis,
    boolean timedOut,
    SimulatorStats stats,
    List<TaskRecord> tasks,
    List<RequestRecord> requests,
    List<PushRecord> pushes,
    Map<String, Long> enqueuedAt,
    Map<String, String> labels,
    long permanentRequests,
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
    List<Rows.Unfinished> stuck,
    Map<String, String> pgSettings,
    Enqueues enqueues,
    Backup backup) {

  /** A run without a backup provider (every run before {@code --backup-threads}). */
  RunData(
      BenchOptions options,
      String label,
      long startMillis,
      long endMillis,
      boolean timedOut,
      SimulatorStats stats,
      List<TaskRecord> tasks,
      List<RequestRecord> requests,
      List<PushRecord> pushes,
      Map<String, Long> enqueuedAt,
      Map<String, String> labels,
      long permanentRequests,
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
      List<Rows.Unfinished> stuck,
      Map<String, String> pgSettings,
      Enqueues enqueues) {
    this(
        options,
        label,
        startMillis,
        endMillis,
        timedOut,
        stats,
        tasks,
        requests,
        pushes,
        enqueuedAt,
        labels,
        permanentRequests,
        solves,
        polls,
        handoffSeconds,
        enqueueToSubmitSeconds,
        jobrunrJobs,
        sqlStatements,
        permanentJobs,
        samples,
        nodes,
        postgresCpuSeconds,
        benchCpuSeconds,
        machineBusyShare,
        chaos,
        stuck,
        pgSettings,
        enqueues,
        Backup.NONE);
  }

  /**
   * The backup provider's own records, read from its simulator at the same moment as the primary's
   * ({@code --backup-threads}); {@link #NONE} without one. The figures about the backup ({@link
   * BackupFigures}) are counted from these and the primary's records only.
   *
   * @param spend its spend rows (key fingerprint, UTC day, type, tasks charged, amount)
   */
  record Backup(
      BackupPlan plan,
      SimulatorStats stats,
      List<TaskRecord> tasks,
      List<RequestRecord> requests,
      List<PushRecord> pushes,
      List<SpendRecord> spend) {
    static final Backup NONE =
        new Backup(BackupPlan.NONE, null, List.of(), List.of(), List.of(), List.of());

    boolean configured() {
      return plan.configured();
    }
  }

  /**
   * How the solves were enqueued, the harness's own records: over how many connections, from the
   * first request sent to the last answered, when each was sent (subject → the simulator's clock,
   * in the order sent; empty unless the app node is the REST one), and the app node's own JVM (CPU
   * seconds, peak RSS; NaN when it is the bench's JVM).
   */
  record Enqueues(
      int connections,
      double seconds,
      Map<String, Long> sentAt,
      double appCpuSeconds,
      double appPeakRssMiB) {
    static final Enqueues NONE = new Enqueues(0, Double.NaN, Map.of(), Double.NaN, Double.NaN);
  }

  /** A worker node as it ended: killed by the chaos or stopped at the end. */
  record Node(
      String name, double cpuSeconds, double peakRssMiB, double aliveSeconds, boolean killed) {}
}

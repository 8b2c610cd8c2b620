package com.captchajobs.simulator;

import java.util.List;
import java.util.Map;

/**
 * A snapshot of what the simulator saw, over all keys or for one key.
 *
 * @param inFlight provider threads busy now (acceptance → answer ready; queued tasks excluded)
 * @param maxInFlight highest {@code inFlight} since start or reset
 * @param acceptedSubmits {@code in.php} calls that created a task (including {@link
 *     Fault#LOST_RESPONSE})
 * @param rejectedSubmitsByCode {@code in.php} calls that created no task, by answer code; faults
 *     count under their code ({@code ERROR_SERVER_ERROR}) or as {@code HTTP_502}, {@code HTTP_500},
 *     {@code EMPTY_BODY}, {@code HANG}, {@code RESET}
 * @param duplicateSubmits accepted submits whose method, pageurl, site key and body hash had been
 *     accepted before (per key; summed over keys)
 * @param submitsByPageUrl accepted submits per {@code pageurl} (submits without one are not listed)
 * @param resCalls {@code res.php action=get} calls, faulted ones included
 * @param solvedTasks tasks whose answer became ready with a solution
 * @param pollsPerSolvedTask {@code action=get} calls on solved tasks divided by {@code solvedTasks}
 * @param fetchLagP50Seconds median of (first successful get − answer ready) over fetched solved
 *     tasks
 * @param fetchLagP95Seconds 95th percentile (nearest rank) of the same
 * @param fetchLagMaxSeconds maximum of the same
 * @param fetchLagMeanSeconds mean of the same
 * @param threadSeconds integral of {@code inFlight} over time since start or reset
 * @param inFlightSeries {@code [epochMillis, inFlight]} at start/reset and at every change (at most
 *     200,000 points per key)
 */
public record SimulatorStats(
    int inFlight,
    int maxInFlight,
    long acceptedSubmits,
    Map<String, Long> rejectedSubmitsByCode,
    long duplicateSubmits,
    Map<String, Long> submitsByPageUrl,
    long resCalls,
    long solvedTasks,
    double pollsPerSolvedTask,
    double fetchLagP50Seconds,
    double fetchLagP95Seconds,
    double fetchLagMaxSeconds,
    double fetchLagMeanSeconds,
    double threadSeconds,
    List<long[]> inFlightSeries) {

  /** Rejected submits with this code, 0 if none. */
  public long rejected(String code) {
    return rejectedSubmitsByCode.getOrDefault(code, 0L);
  }
}

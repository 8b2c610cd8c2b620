package com.captchajobs.simulator;

/**
 * One {@code res.php action=reportbad} or {@code reportgood} the simulator recorded (answered
 * {@code OK_REPORT_RECORDED}), for tests that count the reports a task got. Calls answered by a
 * fault or with an error code are not reports; the request log ({@link
 * CaptchaAiSimulator#requests()}) has them.
 *
 * @param taskId the task reported
 * @param action {@code reportbad} or {@code reportgood}
 * @param at when it was recorded, epoch milliseconds on the simulator's clock
 */
public record ReportRecord(long taskId, String action, long at) {

  public static final String BAD = "reportbad";
  public static final String GOOD = "reportgood";
}

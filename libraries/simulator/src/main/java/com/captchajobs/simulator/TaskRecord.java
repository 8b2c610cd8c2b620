package com.captchajobs.simulator;

import java.math.BigDecimal;

/**
 * One accepted {@code in.php} call as the simulator saw it, for tests and the bench. Instants are
 * epoch milliseconds on the simulator's clock; {@link #NOT_STARTED} marks one that has not come.
 *
 * @param id the task id in.php answered with
 * @param method the plain method name ({@code turnstile}, {@code userrecaptcha}, ...)
 * @param pageUrl the submitted {@code pageurl}; null for image methods
 * @param acceptedAt when in.php accepted it
 * @param startedAt when a provider thread took it (tasks queue when the key's threads are busy)
 * @param readyAt when its answer became ready
 * @param solveMillis how long the provider works on it
 * @param polls {@code res.php action=get} calls on it
 * @param fetched whether a get returned its answer
 * @param subject what the task is about, for telling duplicates apart: its {@code pageurl}, or
 *     {@code sha256:<hex>} of its image for image methods
 * @param outcome {@code SOLVED}, or the error code its answer is (e.g. {@code
 *     ERROR_CAPTCHA_UNSOLVABLE})
 * @param keyFingerprint the first four characters of the key that submitted it, never the key
 * @param type its captcha type as prices name it ({@link KeyPlan#TYPES}), e.g. {@code TURNSTILE}
 * @param price what its key was charged for it at acceptance ({@link KeyPlan#price}); 0 when the
 *     key is billed by threads
 */
public record TaskRecord(
    long id,
    String method,
    String pageUrl,
    long acceptedAt,
    long startedAt,
    long readyAt,
    long solveMillis,
    long polls,
    boolean fetched,
    String subject,
    String outcome,
    String keyFingerprint,
    String type,
    BigDecimal price) {

  /** A task record without key, type and price (none, its method upper-cased, 0). */
  public TaskRecord(
      long id,
      String method,
      String pageUrl,
      long acceptedAt,
      long startedAt,
      long readyAt,
      long solveMillis,
      long polls,
      boolean fetched,
      String subject,
      String outcome) {
    this(
        id,
        method,
        pageUrl,
        acceptedAt,
        startedAt,
        readyAt,
        solveMillis,
        polls,
        fetched,
        subject,
        outcome,
        null,
        method == null ? null : method.toUpperCase(java.util.Locale.ROOT),
        BigDecimal.ZERO);
  }

  /** A task record without subject and outcome (its page URL, or none, and SOLVED). */
  public TaskRecord(
      long id,
      String method,
      String pageUrl,
      long acceptedAt,
      long startedAt,
      long readyAt,
      long solveMillis,
      long polls,
      boolean fetched) {
    this(
        id,
        method,
        pageUrl,
        acceptedAt,
        startedAt,
        readyAt,
        solveMillis,
        polls,
        fetched,
        pageUrl,
        "SOLVED");
  }

  /** Whether a provider thread worked on it (it started): a paid task. */
  public boolean workedOn() {
    return startedAt != NOT_STARTED;
  }

  /** The value of {@link #startedAt} and {@link #readyAt} before the instant has come. */
  public static final long NOT_STARTED = Task.NOT_STARTED;

  /**
   * True when whoever submitted it never asked about it: never polled, never fetched. A second
   * submission of the same business key is explained by such a task (its in.php reply was lost).
   */
  public boolean neverAskedAbout() {
    return polls == 0 && !fetched;
  }

  static TaskRecord of(Task t) {
    return new TaskRecord(
        t.id,
        t.submission.method(),
        t.submission.pageUrl(),
        t.acceptedAt,
        t.startedAt,
        t.readyAt,
        t.solveMillis,
        t.polls,
        t.fetched,
        t.submission.pageUrl() != null
            ? t.submission.pageUrl()
            : "sha256:" + t.submission.bodyHash(),
        t.outcome == Outcome.SOLVED ? "SOLVED" : t.outcome.errorCode,
        ApiHandler.fingerprint(t.account.key),
        t.submission.type(),
        t.price);
  }

  /** Whether its key was charged for it (a priced type). */
  public boolean charged() {
    return price != null && price.signum() > 0;
  }
}

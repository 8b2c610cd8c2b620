package com.captchajobs.simulator;

/**
 * One accepted submit. Immutable facts are final; the timing and fetch fields are guarded by the
 * owning {@link Account}'s lock.
 */
final class Task {
  static final long NOT_STARTED = -1;

  final long id;
  final Account account;
  final Submission submission;
  final Outcome outcome;
  final Answer answer;
  final long acceptedAt;
  final long solveMillis;

  /** Where the answer is pushed when ready ({@code pingback=}), or null. */
  final String pingbackUrl;

  /** What its key was charged for it at acceptance; 0 when billed by threads. */
  final java.math.BigDecimal price;

  long startedAt = NOT_STARTED;
  long readyAt = NOT_STARTED;
  long polls;
  boolean settled;
  boolean fetched;

  Task(
      long id,
      Account account,
      Submission submission,
      Outcome outcome,
      Answer answer,
      long acceptedAt,
      long solveMillis,
      String pingbackUrl,
      java.math.BigDecimal price) {
    this.id = id;
    this.price = price;
    this.account = account;
    this.submission = submission;
    this.outcome = outcome;
    this.answer = answer;
    this.acceptedAt = acceptedAt;
    this.solveMillis = solveMillis;
    this.pingbackUrl = pingbackUrl;
  }

  void start(long at) {
    startedAt = at;
    readyAt = at + solveMillis;
  }

  boolean isReadyAt(long now) {
    return readyAt != NOT_STARTED && readyAt <= now;
  }
}

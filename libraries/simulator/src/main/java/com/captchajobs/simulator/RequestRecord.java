package com.captchajobs.simulator;

/**
 * One {@code in.php} or {@code res.php} request as the simulator handled it, for the bench's
 * accounting from the provider's side. Neither the key nor an answer is recorded.
 *
 * @param at when the simulator handled it, epoch milliseconds on its clock
 * @param endpoint {@code in.php} or {@code res.php}
 * @param action the {@code action} of a res.php request ({@code get}, ...); null for in.php
 * @param keyFingerprint the key's first four characters, never the key
 * @param taskId for in.php the task it created, for res.php the {@code id} it asked about (when
 *     numeric); 0 when none
 * @param outcome {@code OK}, an error code ({@code CAPCHA_NOT_READY}, ...), or {@code FAULT} when a
 *     fault answered instead of the service
 * @param fault the fault injected into this call ({@code HTML_502}, {@code LOST_RESPONSE}, ...), or
 *     null; {@code LOST_RESPONSE} and {@code SLOW} reached the service (their outcome is the
 *     service's), the others did not
 */
public record RequestRecord(
    long at,
    String endpoint,
    String action,
    String keyFingerprint,
    long taskId,
    String outcome,
    String fault) {

  public static final String IN = "in.php";
  public static final String RES = "res.php";

  /** A {@code res.php action=get}: the calls CaptchaAI allows once per task every 5 s. */
  public boolean resGet() {
    return RES.equals(endpoint) && "get".equals(action);
  }

  /** Whether the service itself handled it (no fault, or a fault applied after the service). */
  public boolean reachedService() {
    return fault == null
        || fault.equals("LOST_RESPONSE")
        || fault.equals("SLOW")
        || fault.equals("PLAIN_TEXT");
  }

  /** Whether the client got the service's answer (it reached the service and no reply was lost). */
  public boolean delivered() {
    return reachedService() && !"LOST_RESPONSE".equals(fault);
  }
}

package com.captchajobs.core.client;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a CaptchaAI code means for the caller (the table in docs/captchaai-contract.md): permanent
 * classes must never be resent unchanged, {@link #THREADS} waits for a free thread, {@link
 * #TRANSIENT} backs off and retries, {@link #NOT_READY} polls again.
 */
public enum ErrorClass {
  /** The key is wrong, unknown, banned or not allowed from this IP: stop using the key. */
  CREDENTIAL(true),
  /** The request itself is wrong (parameters, method, task id). */
  REQUEST(true),
  /** The image is empty, too big, of the wrong type or unreadable. */
  IMAGE(true),
  /** The proxy is malformed, marked bad or could not be used. */
  PROXY(true),
  /** The workers could not solve this task. */
  UNSOLVABLE(true),
  /** No free thread on the key's plan: wait for one. */
  THREADS(false),
  /** Rate limits, server errors, network trouble and unrecognised replies: back off and retry. */
  TRANSIENT(false),
  /** The task is still being solved: poll again. */
  NOT_READY(false),
  /**
   * Not a provider code: the solve's deadline ({@code captchaai.solve-deadline}) passed before an
   * answer. Ends the solve.
   */
  DEADLINE(true);

  private static final Map<String, ErrorClass> CODES =
      Map.ofEntries(
          Map.entry("ERROR_WRONG_USER_KEY", CREDENTIAL),
          Map.entry("ERROR_KEY_DOES_NOT_EXIST", CREDENTIAL),
          Map.entry("IP_BANNED", CREDENTIAL),
          Map.entry("ERROR_IP_BANNED", CREDENTIAL),
          Map.entry("ERROR_IP_NOT_ALLOWED", CREDENTIAL),
          Map.entry("ERROR_PAGEURL", REQUEST),
          Map.entry("ERROR_GOOGLEKEY", REQUEST),
          Map.entry("ERROR_WRONG_GOOGLEKEY", REQUEST),
          Map.entry("ERROR_BAD_TOKEN_OR_PAGEURL", REQUEST),
          Map.entry("ERROR_BAD_PARAMETERS", REQUEST),
          Map.entry("ERROR_NO_SUCH_METHOD", REQUEST),
          Map.entry("ERROR_DOMAIN_NOT_ALLOWED", REQUEST),
          Map.entry("ERROR_TOKEN_EXPIRED", REQUEST),
          Map.entry("ERROR_WRONG_ID_FORMAT", REQUEST),
          Map.entry("ERROR_WRONG_CAPTCHA_ID", REQUEST),
          Map.entry("ERROR_NO_SUCH_CAPCHA_ID", REQUEST),
          Map.entry("ERROR_EMPTY_ACTION", REQUEST),
          Map.entry("ERROR_DUPLICATE_REPORT", REQUEST),
          Map.entry("REPORT_NOT_RECORDED", REQUEST),
          Map.entry("ERROR_IP_ADDRES", REQUEST),
          Map.entry("ERROR_ZERO_CAPTCHA_FILESIZE", IMAGE),
          Map.entry("ERROR_TOO_BIG_CAPTCHA_FILESIZE", IMAGE),
          Map.entry("ERROR_WRONG_FILE_EXTENSION", IMAGE),
          Map.entry("ERROR_IMAGE_TYPE_NOT_SUPPORTED", IMAGE),
          Map.entry("ERROR_UPLOAD", IMAGE),
          Map.entry("ERROR_CAPTCHAIMAGE_BLOCKED", IMAGE),
          Map.entry("ERROR_EMPTY_CAPTCHA", IMAGE),
          Map.entry("ERROR_BAD_DUPLICATES", IMAGE),
          Map.entry("ERROR_BAD_PROXY", PROXY),
          Map.entry("ERROR_PROXY_CONNECTION_FAILED", PROXY),
          Map.entry("ERROR_PROXY_FORMAT", PROXY),
          Map.entry("ERROR_CAPTCHA_UNSOLVABLE", UNSOLVABLE),
          Map.entry("ERROR_ZERO_BALANCE", THREADS),
          Map.entry("ERROR_NO_SLOT_AVAILABLE", THREADS),
          Map.entry("ERROR_TOO_MUCH_REQUESTS", TRANSIENT),
          Map.entry("MAX_USER_TURN", TRANSIENT),
          Map.entry("ERROR_SERVER_ERROR", TRANSIENT),
          Map.entry("ERROR_INTERNAL_SERVER_ERROR", TRANSIENT),
          Map.entry("CAPCHA_NOT_READY", NOT_READY));

  /** Every provider code this table classifies, with its class (for meters known in advance). */
  public static Map<String, ErrorClass> knownCodes() {
    return CODES;
  }

  /** "ERROR", "ERROR: 1001", "ERROR:1001": 2captcha's temporary suspension for breaking limits. */
  private static final Pattern SUSPENSION = Pattern.compile("ERROR(:\\s*\\d*)?");

  private final boolean permanent;

  ErrorClass(boolean permanent) {
    this.permanent = permanent;
  }

  /**
   * The class as JSON, metrics and logs show it: lower case ({@code transient}, {@code credential},
   * ...), as the REST API has always written it.
   */
  @JsonValue
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a request that got this class must never be resent unchanged. */
  public boolean permanent() {
    return permanent;
  }

  /**
   * Classifies a provider code or one of the client's transport codes. Unknown {@code ERROR_*}
   * codes are {@link #REQUEST} (never retry what we do not understand as an error); anything else
   * unknown, including null, is {@link #TRANSIENT} (a reply that is not a code is a glitch).
   */
  public static ErrorClass of(String code) {
    if (code == null) {
      return TRANSIENT;
    }
    String trimmed = code.trim();
    ErrorClass known = CODES.get(trimmed);
    if (known != null) {
      return known;
    }
    if (SUSPENSION.matcher(trimmed).matches()) {
      return TRANSIENT;
    }
    return trimmed.startsWith("ERROR_") ? REQUEST : TRANSIENT;
  }
}

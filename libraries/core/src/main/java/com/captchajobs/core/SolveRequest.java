package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaTask;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.InvalidTaskException;
import com.captchajobs.core.internal.enqueue.SolveFields;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One CAPTCHA to solve, keyed by the caller's business key (the same key with the same payload is
 * the same solve). Immutable and validated on construction: a bad field throws {@link
 * InvalidSolveRequestException} naming it, so a request that exists can be stored.
 *
 * <pre>{@code
 * SolveRequest request = SolveRequest.turnstile("order-42", "0x4AAAAAAA...", "https://shop.example/checkout")
 *     .with("action", "checkout")
 *     .withPriority(10);
 * UUID id = solves.enqueue(request);
 * }</pre>
 *
 * Field names are CaptchaJobs' camelCase names: {@code sitekey}, {@code pageUrl}, {@code action},
 * {@code minScore}, {@code cdata}, {@code dataS}, {@code invisible}, {@code version}, {@code body},
 * {@code proxy}, {@code proxyType}, {@code userAgent}, {@code cookies}, {@code gt}, {@code
 * challenge}, {@code apiServer}, {@code captchaId} and the image options.
 */
public final class SolveRequest {

  private final String businessKey;
  private final CaptchaType type;
  private final Map<String, String> params;
  private final int priority;
  private final String callbackUrl;
  private final String batch;

  /** Longest {@link #withBatch batch} label. */
  public static final int MAX_BATCH = 200;

  private SolveRequest(
      String businessKey,
      CaptchaType type,
      Map<String, String> params,
      int priority,
      String callbackUrl,
      String batch) {
    if (batch != null && (batch.isBlank() || batch.length() > MAX_BATCH)) {
      throw new InvalidSolveRequestException(
          "batch", "must be 1 to " + MAX_BATCH + " characters, when given");
    }
    this.batch = batch;
    try {
      // the same character rules as every other field: no control or format character
      SolveFields.validateText("batch", batch, MAX_BATCH);
      SolveFields.validateBusinessKey(businessKey);
      if (type == null) {
        throw new InvalidTaskException("type", "is required");
      }
      SolveFields.validateParams(params);
      SolveFields.validatePriority(priority);
      CaptchaTask.of(type, params);
      if (callbackUrl != null) {
        SolveFields.validateCallbackUrl(callbackUrl);
      }
    } catch (InvalidTaskException e) {
      throw new InvalidSolveRequestException(e.field(), e.problem());
    }
    this.businessKey = businessKey;
    this.type = type;
    this.params = Collections.unmodifiableMap(new TreeMap<>(params));
    this.priority = priority;
    this.callbackUrl = callbackUrl;
  }

  /** Any type from our field names, e.g. as read from JSON. */
  public static SolveRequest of(String businessKey, CaptchaType type, Map<String, String> params) {
    Objects.requireNonNull(params, "params");
    for (String name : params.keySet()) {
      if (name == null) {
        throw new InvalidSolveRequestException("(null)", "is not a field name");
      }
    }
    return new SolveRequest(businessKey, type, params, 0, null, null);
  }

  public static SolveRequest turnstile(String businessKey, String sitekey, String pageUrl) {
    return of(businessKey, CaptchaType.TURNSTILE, fields("sitekey", sitekey, "pageUrl", pageUrl));
  }

  public static SolveRequest recaptchaV2(String businessKey, String sitekey, String pageUrl) {
    return of(
        businessKey, CaptchaType.RECAPTCHA_V2, fields("sitekey", sitekey, "pageUrl", pageUrl));
  }

  /** reCAPTCHA v3 with its action and the minimum score (0.1 to 0.9). */
  public static SolveRequest recaptchaV3(
      String businessKey, String sitekey, String pageUrl, String action, double minScore) {
    String score = BigDecimal.valueOf(minScore).toPlainString();
    return of(
        businessKey,
        CaptchaType.RECAPTCHA_V3,
        fields("sitekey", sitekey, "pageUrl", pageUrl, "action", action, "minScore", score));
  }

  public static SolveRequest recaptchaEnterprise(
      String businessKey, String sitekey, String pageUrl) {
    return of(
        businessKey,
        CaptchaType.RECAPTCHA_ENTERPRISE,
        fields("sitekey", sitekey, "pageUrl", pageUrl));
  }

  /** A normal image CAPTCHA from its base64 bytes. */
  public static SolveRequest image(String businessKey, String base64) {
    return of(businessKey, CaptchaType.IMAGE, fields("body", base64));
  }

  /**
   * A Cloudflare challenge page through an HTTP proxy ({@code host:port} or {@code
   * user:pass@host:port}); {@link #cloudflareChallenge(String, String, String, String)} names
   * another proxy type.
   */
  public static SolveRequest cloudflareChallenge(String businessKey, String pageUrl, String proxy) {
    return cloudflareChallenge(businessKey, pageUrl, proxy, "HTTP");
  }

  /**
   * A Cloudflare challenge page; the provider needs a proxy ({@code host:port} or {@code
   * user:pass@host:port}) of type {@code HTTP} or {@code HTTPS}.
   */
  public static SolveRequest cloudflareChallenge(
      String businessKey, String pageUrl, String proxy, String proxyType) {
    return of(
        businessKey,
        CaptchaType.CLOUDFLARE_CHALLENGE,
        fields("pageUrl", pageUrl, "proxy", proxy, "proxyType", proxyType));
  }

  public static SolveRequest geetest(
      String businessKey, String gt, String challenge, String pageUrl) {
    return of(
        businessKey,
        CaptchaType.GEETEST,
        fields("gt", gt, "challenge", challenge, "pageUrl", pageUrl));
  }

  public static SolveRequest geetestV4(String businessKey, String captchaId, String pageUrl) {
    return of(
        businessKey, CaptchaType.GEETEST_V4, fields("captchaId", captchaId, "pageUrl", pageUrl));
  }

  /** A copy with an optional field set (null removes it), validated again. */
  public SolveRequest with(String field, String value) {
    Map<String, String> p = new TreeMap<>(params);
    if (field == null) {
      throw new InvalidSolveRequestException("(null)", "is not a field name");
    }
    if (value == null) {
      p.remove(field);
    } else {
      p.put(field, value);
    }
    return new SolveRequest(businessKey, type, p, priority, callbackUrl, batch);
  }

  /** A copy with this priority: among solves waiting for a thread, higher goes first. */
  public SolveRequest withPriority(int priority) {
    return new SolveRequest(businessKey, type, params, priority, callbackUrl, batch);
  }

  /** A copy whose outcome is POSTed (signed) to this absolute http(s) URL. */
  public SolveRequest withCallbackUrl(String callbackUrl) {
    return new SolveRequest(businessKey, type, params, priority, callbackUrl, batch);
  }

  public String businessKey() {
    return businessKey;
  }

  public CaptchaType type() {
    return type;
  }

  /** Our field names to values, sorted by name. */
  public Map<String, String> params() {
    return params;
  }

  public int priority() {
    return priority;
  }

  public String callbackUrl() {
    return callbackUrl;
  }

  /**
   * A copy labelled with a batch, for operators (the batch summary and the list filter). The label
   * is not part of the payload: the same key and payload with another batch is the same solve,
   * which keeps its first label.
   */
  public SolveRequest withBatch(String batch) {
    return new SolveRequest(businessKey, type, params, priority, callbackUrl, batch);
  }

  /** The batch label, or null. */
  public String batch() {
    return batch;
  }

  /** Names the solve, never the parameters (a proxy may carry a password). */
  @Override
  public String toString() {
    return "SolveRequest[" + type + " " + businessKey + "]";
  }

  /** Names and values in turn; a null value is left out. */
  private static Map<String, String> fields(String... namesAndValues) {
    Map<String, String> f = new TreeMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (namesAndValues[i + 1] != null) {
        f.put(namesAndValues[i], namesAndValues[i + 1]);
      }
    }
    return f;
  }
}

package com.captchajobs.core.client;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;

/**
 * reCAPTCHA Enterprise, v2 or v3: in.php {@code method=userrecaptcha, enterprise=1}. The answer
 * usually carries the user agent the token is bound to.
 *
 * @param version "v2" (the default when null) or "v3"
 */
public record RecaptchaEnterpriseTask(
    String sitekey,
    String pageUrl,
    String version,
    String dataS,
    String action,
    BigDecimal minScore,
    String userAgent,
    String cookies,
    Proxy proxy)
    implements CaptchaTask {

  private static final Set<String> FIELDS =
      TaskFields.browserAnd("sitekey", "pageUrl", "version", "dataS", "action", "minScore");

  /** Checks every field; minScore only makes sense with version v3. */
  public RecaptchaEnterpriseTask {
    Check.required("sitekey", sitekey);
    Check.pageUrl(pageUrl);
    if (version == null) {
      version = "v2";
    } else if (!version.equals("v2") && !version.equals("v3")) {
      throw new InvalidTaskException("version", "must be v2 or v3");
    }
    Check.optional("dataS", dataS);
    Check.optional("action", action);
    Check.range("minScore", minScore, "0.1", "0.9");
    if (minScore != null && version.equals("v2")) {
      throw new InvalidTaskException("minScore", "requires version v3");
    }
    Check.browser(userAgent, cookies);
  }

  /** An Enterprise v2 task without proxy. */
  public static RecaptchaEnterpriseTask of(String sitekey, String pageUrl) {
    return new RecaptchaEnterpriseTask(sitekey, pageUrl, "v2", null, null, null, null, null, null);
  }

  static RecaptchaEnterpriseTask from(Map<String, String> params) {
    TaskFields in = TaskFields.read(CaptchaType.RECAPTCHA_ENTERPRISE, params, FIELDS);
    return new RecaptchaEnterpriseTask(
        in.string("sitekey"),
        in.string("pageUrl"),
        in.string("version"),
        in.string("dataS"),
        in.string("action"),
        in.decimal("minScore"),
        in.string("userAgent"),
        in.string("cookies"),
        in.proxy());
  }

  @Override
  public CaptchaType type() {
    return CaptchaType.RECAPTCHA_ENTERPRISE;
  }

  @Override
  public Map<String, String> params() {
    return TaskFields.Out.params()
        .put("sitekey", sitekey)
        .put("pageUrl", pageUrl)
        .put("version", version)
        .put("dataS", dataS)
        .put("action", action)
        .put("minScore", minScore)
        .browserParams(userAgent, cookies, proxy)
        .toMap();
  }

  @Override
  public Map<String, String> formFields() {
    return TaskFields.Out.form()
        .put("method", "userrecaptcha")
        .put("enterprise", "1")
        .put("version", version.equals("v3") ? "v3" : null)
        .put("googlekey", sitekey)
        .put("pageurl", pageUrl)
        .put("data-s", dataS)
        .put("action", action)
        .put("min_score", minScore)
        .browserForm(userAgent, cookies, proxy)
        .toMap();
  }
}

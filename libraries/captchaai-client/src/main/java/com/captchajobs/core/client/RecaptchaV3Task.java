package com.captchajobs.core.client;

import java.math.BigDecimal;
import java.util.Map;

/** reCAPTCHA v3: in.php {@code method=userrecaptcha, version=v3}. */
public record RecaptchaV3Task(
    String sitekey,
    String pageUrl,
    String action,
    BigDecimal minScore,
    String userAgent,
    String cookies,
    Proxy proxy)
    implements CaptchaTask {

  /** Checks every field; minScore must be within 0.1..0.9. */
  public RecaptchaV3Task {
    Check.required("sitekey", sitekey);
    Check.pageUrl(pageUrl);
    Check.optional("action", action);
    Check.range("minScore", minScore, "0.1", "0.9");
    Check.browser(userAgent, cookies);
  }

  /** A v3 task with the provider's default action and score. */
  public static RecaptchaV3Task of(String sitekey, String pageUrl) {
    return new RecaptchaV3Task(sitekey, pageUrl, null, null, null, null, null);
  }

  /** A v3 task for a page action and a minimum score. */
  public static RecaptchaV3Task of(
      String sitekey, String pageUrl, String action, BigDecimal minScore) {
    return new RecaptchaV3Task(sitekey, pageUrl, action, minScore, null, null, null);
  }

  @Override
  public Map<String, String> formFields() {
    return TaskFields.Out.form()
        .put("method", "userrecaptcha")
        .put("version", "v3")
        .put("googlekey", sitekey)
        .put("pageurl", pageUrl)
        .put("action", action)
        .put("min_score", minScore)
        .browserForm(userAgent, cookies, proxy)
        .toMap();
  }
}

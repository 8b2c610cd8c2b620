package com.captchajobs.core.client;

import java.math.BigDecimal;
import java.util.Map;

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

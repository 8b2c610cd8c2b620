package com.captchajobs.core.client;

import java.util.Map;

/** reCAPTCHA v2, visible or invisible: in.php {@code method=userrecaptcha}. */
public record RecaptchaV2Task(
    String sitekey,
    String pageUrl,
    Boolean invisible,
    String dataS,
    String userAgent,
    String cookies,
    Proxy proxy)
    implements CaptchaTask {

  /** Checks every field; messages start with the field name. */
  public RecaptchaV2Task {
    Check.required("sitekey", sitekey);
    Check.pageUrl(pageUrl);
    Check.optional("dataS", dataS);
    Check.browser(userAgent, cookies);
  }

  /** A visible reCAPTCHA v2 without proxy. */
  public static RecaptchaV2Task of(String sitekey, String pageUrl) {
    return new RecaptchaV2Task(sitekey, pageUrl, null, null, null, null, null);
  }

  @Override
  public Map<String, String> formFields() {
    return TaskFields.Out.form()
        .put("method", "userrecaptcha")
        .put("googlekey", sitekey)
        .put("pageurl", pageUrl)
        .put("invisible", Boolean.TRUE.equals(invisible) ? "1" : null)
        .put("data-s", dataS)
        .browserForm(userAgent, cookies, proxy)
        .toMap();
  }
}

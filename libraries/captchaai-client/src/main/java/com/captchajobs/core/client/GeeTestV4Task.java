package com.captchajobs.core.client;

import java.util.Map;

/** GeeTest v4: in.php {@code method=geetest, version=4} with the captcha id sent as {@code gt}. */
public record GeeTestV4Task(
    String captchaId, String pageUrl, String userAgent, String cookies, Proxy proxy)
    implements CaptchaTask {

  /** Checks every field; messages start with the field name. */
  public GeeTestV4Task {
    Check.required("captchaId", captchaId);
    Check.pageUrl(pageUrl);
    Check.browser(userAgent, cookies);
  }

  /** A GeeTest v4 task without proxy. */
  public static GeeTestV4Task of(String captchaId, String pageUrl) {
    return new GeeTestV4Task(captchaId, pageUrl, null, null, null);
  }

  @Override
  public Map<String, String> formFields() {
    return TaskFields.Out.form()
        .put("method", "geetest")
        .put("version", "4")
        .put("gt", captchaId)
        .put("pageurl", pageUrl)
        .browserForm(userAgent, cookies, proxy)
        .toMap();
  }
}

package com.captchajobs.core.client;

import java.util.Map;
import java.util.Set;

/** GeeTest v4: in.php {@code method=geetest, version=4} with the captcha id sent as {@code gt}. */
public record GeeTestV4Task(
    String captchaId, String pageUrl, String userAgent, String cookies, Proxy proxy)
    implements CaptchaTask {

  private static final Set<String> FIELDS = TaskFields.browserAnd("captchaId", "pageUrl");

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

  static GeeTestV4Task from(Map<String, String> params) {
    TaskFields in = TaskFields.read(CaptchaType.GEETEST_V4, params, FIELDS);
    return new GeeTestV4Task(
        in.string("captchaId"),
        in.string("pageUrl"),
        in.string("userAgent"),
        in.string("cookies"),
        in.proxy());
  }

  @Override
  public CaptchaType type() {
    return CaptchaType.GEETEST_V4;
  }

  @Override
  public Map<String, String> params() {
    return TaskFields.Out.params()
        .put("captchaId", captchaId)
        .put("pageUrl", pageUrl)
        .browserParams(userAgent, cookies, proxy)
        .toMap();
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

package com.captchajobs.core.client;

import java.util.Map;
import java.util.Set;

/**
 * GeeTest v3: in.php {@code method=geetest}. The challenge is single-use, so an expired one
 * (ERROR_TOKEN_EXPIRED) needs a fresh task, not a resend.
 */
public record GeeTestTask(
    String gt,
    String challenge,
    String pageUrl,
    String apiServer,
    String userAgent,
    String cookies,
    Proxy proxy)
    implements CaptchaTask {

  private static final Set<String> FIELDS =
      TaskFields.browserAnd("gt", "challenge", "pageUrl", "apiServer");

  /** Checks every field; messages start with the field name. */
  public GeeTestTask {
    Check.required("gt", gt);
    Check.required("challenge", challenge);
    Check.pageUrl(pageUrl);
    Check.optional("apiServer", apiServer);
    Check.browser(userAgent, cookies);
  }

  /** A GeeTest v3 task on the default API server. */
  public static GeeTestTask of(String gt, String challenge, String pageUrl) {
    return new GeeTestTask(gt, challenge, pageUrl, null, null, null, null);
  }

  static GeeTestTask from(Map<String, String> params) {
    TaskFields in = TaskFields.read(CaptchaType.GEETEST, params, FIELDS);
    return new GeeTestTask(
        in.string("gt"),
        in.string("challenge"),
        in.string("pageUrl"),
        in.string("apiServer"),
        in.string("userAgent"),
        in.string("cookies"),
        in.proxy());
  }

  @Override
  public CaptchaType type() {
    return CaptchaType.GEETEST;
  }

  @Override
  public Map<String, String> params() {
    return TaskFields.Out.params()
        .put("gt", gt)
        .put("challenge", challenge)
        .put("pageUrl", pageUrl)
        .put("apiServer", apiServer)
        .browserParams(userAgent, cookies, proxy)
        .toMap();
  }

  @Override
  public Map<String, String> formFields() {
    return TaskFields.Out.form()
        .put("method", "geetest")
        .put("gt", gt)
        .put("challenge", challenge)
        .put("pageurl", pageUrl)
        .put("api_server", apiServer)
        .browserForm(userAgent, cookies, proxy)
        .toMap();
  }
}

package com.captchajobs.core.client;

import java.util.Map;

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

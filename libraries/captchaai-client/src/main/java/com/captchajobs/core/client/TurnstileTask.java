package com.captchajobs.core.client;

import java.util.Map;

/** Cloudflare Turnstile widget: in.php {@code method=turnstile}. */
public record TurnstileTask(
    String sitekey,
    String pageUrl,
    String action,
    String cdata,
    String userAgent,
    String cookies,
    Proxy proxy)
    implements CaptchaTask {

  /** Checks every field; messages start with the field name. */
  public TurnstileTask {
    Check.required("sitekey", sitekey);
    Check.pageUrl(pageUrl);
    Check.optional("action", action);
    Check.optional("cdata", cdata);
    Check.browser(userAgent, cookies);
  }

  /** A Turnstile task without action, cData or proxy. */
  public static TurnstileTask of(String sitekey, String pageUrl) {
    return new TurnstileTask(sitekey, pageUrl, null, null, null, null, null);
  }

  @Override
  public Map<String, String> formFields() {
    return TaskFields.Out.form()
        .put("method", "turnstile")
        .put("sitekey", sitekey)
        .put("pageurl", pageUrl)
        .put("action", action)
        .put("data", cdata)
        .browserForm(userAgent, cookies, proxy)
        .toMap();
  }
}

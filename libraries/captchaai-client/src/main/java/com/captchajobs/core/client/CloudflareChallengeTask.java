package com.captchajobs.core.client;

import java.util.Map;

/**
 * Cloudflare's full-page challenge: in.php {@code method=cloudflare_challenge}. The answer is a
 * cf_clearance cookie bound to the proxy's IP and the returned user agent, so a proxy is required.
 */
public record CloudflareChallengeTask(String pageUrl, Proxy proxy, String userAgent, String cookies)
    implements CaptchaTask {

  /** Requires an HTTP or HTTPS proxy. */
  public CloudflareChallengeTask {
    Check.pageUrl(pageUrl);
    if (proxy == null) {
      throw new InvalidTaskException(
          "proxy", "is required for " + CaptchaType.CLOUDFLARE_CHALLENGE);
    }
    if (proxy.type() != Proxy.Type.HTTP && proxy.type() != Proxy.Type.HTTPS) {
      throw new InvalidTaskException(
          "proxyType", "must be HTTP or HTTPS for " + CaptchaType.CLOUDFLARE_CHALLENGE);
    }
    Check.browser(userAgent, cookies);
  }

  /** A challenge solved through the given proxy. */
  public static CloudflareChallengeTask of(String pageUrl, Proxy proxy) {
    return new CloudflareChallengeTask(pageUrl, proxy, null, null);
  }

  static CloudflareChallengeTask from(Map<String, String> params) {
    CaptchaType type = CaptchaType.CLOUDFLARE_CHALLENGE;
    TaskFields.read(type, params, TaskFields.names(CloudflareChallengeTask.class));
    // Unlike other types, proxyType is not defaulted: the provider requires it here.
    if (params.get("proxy") != null && params.get("proxyType") == null) {
      throw new InvalidTaskException("proxyType", "is required for " + type);
    }
    return (CloudflareChallengeTask) TaskFields.read(type, params);
  }

  @Override
  public Map<String, String> formFields() {
    return TaskFields.Out.form()
        .put("method", "cloudflare_challenge")
        .put("pageurl", pageUrl)
        .browserForm(userAgent, cookies, proxy)
        .toMap();
  }
}

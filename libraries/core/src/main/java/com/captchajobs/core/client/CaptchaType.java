package com.captchajobs.core.client;

/** The captcha kinds this client can submit; each has one {@link CaptchaTask} record. */
public enum CaptchaType {
  RECAPTCHA_V2,
  RECAPTCHA_V3,
  RECAPTCHA_ENTERPRISE,
  TURNSTILE,
  IMAGE,
  CLOUDFLARE_CHALLENGE,
  GEETEST,
  GEETEST_V4
}

package com.captchajobs.core.client;

/** The captcha kinds this client can submit; each has one {@link CaptchaTask} record. */
public enum CaptchaType {
  RECAPTCHA_V2(RecaptchaV2Task.class),
  RECAPTCHA_V3(RecaptchaV3Task.class),
  RECAPTCHA_ENTERPRISE(RecaptchaEnterpriseTask.class),
  TURNSTILE(TurnstileTask.class),
  IMAGE(ImageTask.class),
  CLOUDFLARE_CHALLENGE(CloudflareChallengeTask.class),
  GEETEST(GeeTestTask.class),
  GEETEST_V4(GeeTestV4Task.class);

  /** The type's record. */
  final Class<? extends CaptchaTask> record;

  CaptchaType(Class<? extends CaptchaTask> record) {
    this.record = record;
  }
}

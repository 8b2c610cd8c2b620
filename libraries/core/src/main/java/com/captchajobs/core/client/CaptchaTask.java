package com.captchajobs.core.client;

import java.util.Map;
import java.util.Objects;

/**
 * A validated CaptchaAI task: one record per {@link CaptchaType}, each checked in its compact
 * constructor, so an instance is always submittable as far as we can tell locally.
 *
 * <pre>{@code
 * CaptchaTask task = CaptchaTask.of(CaptchaType.TURNSTILE,
 *     Map.of("sitekey", "0x4AAA...", "pageUrl", "https://example.com/login"));
 * String taskId = client.submit(task);
 * }</pre>
 */
public sealed interface CaptchaTask
    permits RecaptchaV2Task,
        RecaptchaV3Task,
        RecaptchaEnterpriseTask,
        TurnstileTask,
        ImageTask,
        CloudflareChallengeTask,
        GeeTestTask,
        GeeTestV4Task {

  /** The kind of captcha. */
  CaptchaType type();

  /**
   * Our field names to values; only non-null fields, sorted by name; {@link #of} accepts it back.
   */
  default Map<String, String> params() {
    return TaskFields.params((Record) this);
  }

  /** The in.php form fields (method, googlekey or sitekey, pageurl, ...), without key and json. */
  Map<String, String> formFields();

  /** The page the captcha is on, or null for {@link CaptchaType#IMAGE}. */
  String pageUrl();

  /**
   * Builds and validates a task from our field names.
   *
   * @throws InvalidTaskException naming the first unknown or invalid field
   */
  static CaptchaTask of(CaptchaType type, Map<String, String> params) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(params, "params");
    return switch (type) {
      case RECAPTCHA_V2 -> TaskFields.read(type, params, RecaptchaV2Task.class);
      case RECAPTCHA_V3 -> TaskFields.read(type, params, RecaptchaV3Task.class);
      case RECAPTCHA_ENTERPRISE -> TaskFields.read(type, params, RecaptchaEnterpriseTask.class);
      case TURNSTILE -> TaskFields.read(type, params, TurnstileTask.class);
      case IMAGE -> TaskFields.read(type, params, ImageTask.class);
      case CLOUDFLARE_CHALLENGE -> CloudflareChallengeTask.from(params);
      case GEETEST -> TaskFields.read(type, params, GeeTestTask.class);
      case GEETEST_V4 -> TaskFields.read(type, params, GeeTestV4Task.class);
    };
  }
}

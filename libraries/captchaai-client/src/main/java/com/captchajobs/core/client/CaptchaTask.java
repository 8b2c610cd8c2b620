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
  default CaptchaType type() {
    for (CaptchaType type : CaptchaType.values()) {
      if (type.record == getClass()) {
        return type;
      }
    }
    throw new IllegalStateException("no type has " + getClass());
  }

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
    return type == CaptchaType.CLOUDFLARE_CHALLENGE
        ? CloudflareChallengeTask.from(params)
        : TaskFields.read(type, params);
  }
}

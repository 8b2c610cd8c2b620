package com.captchajobs.spring.boot;

import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The property of each setting the library names, derived from the binding: a group's setting is
 * the prefix of the properties that bind the group and its builder method in kebab case ({@code
 * WebhookSettings.maxBackoff} is {@code captchajobs.webhook.max-backoff}); a setting of {@code
 * SolveSettings} or the client is {@code captchaai.} and its method ({@code pollInterval} is {@code
 * captchaai.poll-interval}). A new setting of a group needs nothing here.
 */
final class PropertyNames {

  /** Where each group is bound: one prefix a group, never one entry a property. */
  private static final Map<String, String> GROUPS =
      Map.of(
          "CaptchaJobs.Builder",
          CaptchaJobsProperties.PREFIX + ".",
          RetentionSettings.class.getSimpleName(),
          CaptchaJobsProperties.PREFIX + ".",
          WorkerSettings.class.getSimpleName(),
          CaptchaJobsProperties.WORKER_PREFIX + ".",
          DashboardSettings.class.getSimpleName(),
          CaptchaJobsProperties.DASHBOARD_PREFIX + ".",
          WebhookSettings.class.getSimpleName(),
          WebhookProperties.PREFIX + ".",
          PingbackSettings.class.getSimpleName(),
          CaptchaAiProperties.PREFIX + ".pingback-");

  /**
   * The builder method that turns a group on names the property that does: the one switch of a
   * group the starter binds ({@code dashboard(int, String, String)} when no dashboard can be
   * served).
   */
  private static final Map<String, String> SWITCHES =
      Map.of("dashboard", CaptchaJobsProperties.DASHBOARD_PREFIX + ".enabled");

  private PropertyNames() {}

  /**
   * The property of a setting as {@link InvalidSettingException#settings()} names it ({@code
   * "WebhookSettings.timeout"}, {@code "pollInterval"}), or null for one no property sets (the data
   * source).
   */
  static String of(String setting) {
    int dot = setting.lastIndexOf('.');
    if (dot < 0 && SWITCHES.containsKey(setting)) {
      return SWITCHES.get(setting);
    }
    if (dot < 0) {
      return setting.equals("dataSource")
          ? null
          : CaptchaAiProperties.PREFIX + "." + kebab(setting);
    }
    String prefix = GROUPS.get(setting.substring(0, dot));
    return prefix == null ? null : prefix + kebab(setting.substring(dot + 1));
  }

  /** The refusal, naming properties instead of builder methods. */
  static IllegalStateException named(InvalidSettingException e) {
    IllegalStateException named = new IllegalStateException(e.message(PropertyNames::of));
    named.setStackTrace(e.getStackTrace());
    return named;
  }

  /** Builds a group, its refusal naming the properties. */
  static <T> T build(Supplier<T> group) {
    try {
      return group.get();
    } catch (InvalidSettingException e) {
      throw named(e);
    }
  }

  static String kebab(String camel) {
    StringBuilder out = new StringBuilder();
    for (char c : camel.toCharArray()) {
      if (Character.isUpperCase(c)) {
        if (out.length() > 0) {
          out.append('-');
        }
        out.append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}

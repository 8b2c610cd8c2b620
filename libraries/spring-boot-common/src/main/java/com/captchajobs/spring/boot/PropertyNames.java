package com.captchajobs.spring.boot;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.settings.InvalidSettingException;
import java.util.Map;

/**
 * The property of each {@link CaptchaJobs.Builder} and {@code SolveSettings.Builder} method, so
 * that a setting the library refuses is named the way a Spring Boot user set it. Every {@code
 * captchaai.*} property is its method's name in kebab case ({@code pollInterval} is {@code
 * captchaai.poll-interval}), and every {@code webhook*} method a {@code captchajobs.webhook.*}
 * property; the others are listed here.
 */
final class PropertyNames {

  private static final Map<String, String> CAPTCHAJOBS =
      Map.ofEntries(
          Map.entry("schema", "captchajobs.schema"),
          Map.entry("nodeName", "captchajobs.worker.name"),
          Map.entry("jobPollInterval", "captchajobs.worker.poll-interval"),
          Map.entry("workerCount", "captchajobs.worker.worker-count"),
          Map.entry("shutdownWait", "captchajobs.worker.shutdown-wait"),
          Map.entry("retention", "captchajobs.retention"),
          Map.entry("retentionInterval", "captchajobs.retention-interval"),
          Map.entry("dashboardAddress", "captchajobs.dashboard.address"),
          // the dashboard's credentials are checked before the builder (naming their properties):
          // what the builder still refuses about it is the dashboard being on
          Map.entry("dashboard", "captchajobs.dashboard.enabled"),
          Map.entry("webhookClientSecret", "captchajobs.api.clients.<name>.webhook-secret"),
          Map.entry("reportWindow", "captchajobs.report-window"));

  private PropertyNames() {}

  /** The property of a builder method, or null for one no property sets (the data source). */
  static String of(String builderMethod) {
    if (builderMethod.equals("dataSource")) {
      return null;
    }
    String listed = CAPTCHAJOBS.get(builderMethod);
    if (listed != null) {
      return listed;
    }
    if (builderMethod.startsWith("webhook")) {
      return "captchajobs.webhook." + kebab(builderMethod.substring("webhook".length()));
    }
    return "captchaai." + kebab(builderMethod);
  }

  /** The refusal, naming properties instead of builder methods. */
  static IllegalStateException named(InvalidSettingException e) {
    IllegalStateException named = new IllegalStateException(e.message(PropertyNames::of));
    named.setStackTrace(e.getStackTrace());
    return named;
  }

  private static String kebab(String camel) {
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

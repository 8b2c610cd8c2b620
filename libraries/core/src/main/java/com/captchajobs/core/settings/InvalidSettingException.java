package com.captchajobs.core.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A setting that cannot work, refused when the settings are built. The message names each setting
 * by its builder method ({@code pollInterval(Duration) must be at least 5s}); {@link #message}
 * names them otherwise, e.g. by the Spring Boot property ({@code captchaai.poll-interval}).
 */
public final class InvalidSettingException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /**
   * A setting in a template: <code>{pollInterval(Duration)}</code>, or with the group that holds
   * it, <code>{WebhookSettings.timeout(Duration)}</code>.
   */
  private static final Pattern SETTING = Pattern.compile("\\{((?:\\w+\\.)*\\w+)(\\([^)]*\\))}");

  private final String template;

  /**
   * A refusal of the settings a template names.
   *
   * @param template the message with each setting as <code>{method(Type)}</code>
   */
  public InvalidSettingException(String template) {
    super(SETTING.matcher(template).replaceAll("$1$2"));
    this.template = template;
  }

  /** Throws naming the settings of {@code template} when {@code ok} is false. */
  public static void require(boolean ok, String template) {
    if (!ok) {
      throw new InvalidSettingException(template);
    }
  }

  /**
   * The builder methods of the settings the message names, in order, each with its group where the
   * template names one ({@code "WebhookSettings.timeout"}).
   */
  public List<String> settings() {
    List<String> names = new ArrayList<>();
    Matcher m = SETTING.matcher(template);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /**
   * The message with each setting named by {@code name} from its builder method ({@code
   * "pollInterval"}, {@code "WebhookSettings.timeout"}); where {@code name} gives null, the builder
   * method stays.
   */
  public String message(Function<String, String> name) {
    return SETTING
        .matcher(template)
        .replaceAll(
            m ->
                Matcher.quoteReplacement(
                    Objects.requireNonNullElse(name.apply(m.group(1)), m.group(1) + m.group(2))));
  }
}

package com.captchajobs.core.internal.enqueue;

import com.captchajobs.core.client.InvalidTaskException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * The one validation of a solve's own fields (the provider parameters are {@code CaptchaTask}'s).
 * The Java API and through it the REST API call it when a request is built; messages name the
 * field.
 */
public final class SolveFields {

  /** Longest business key accepted. */
  public static final int MAX_BUSINESS_KEY = 200;

  /** Longest callback URL accepted. */
  public static final int MAX_CALLBACK_URL = 2048;

  /** Longest parameter name accepted. */
  public static final int MAX_PARAM_NAME = 64;

  /**
   * Longest parameter value accepted here (the task types cap their fields further: 4096 characters
   * for text fields, an image's base64 by its decoded size).
   */
  public static final int MAX_PARAM_VALUE = 200_000;

  /** Lowest priority accepted. */
  public static final int MIN_PRIORITY = -10;

  /** Highest priority accepted (a client's {@code max-priority} may lower it). */
  public static final int MAX_PRIORITY = 10;

  private SolveFields() {}

  /**
   * @throws InvalidTaskException naming {@code businessKey}
   */
  public static void validateBusinessKey(String businessKey) {
    if (businessKey == null) {
      throw new InvalidTaskException("businessKey", "is required");
    }
    if (businessKey.isBlank()) {
      throw new InvalidTaskException("businessKey", "must not be empty");
    }
    validateText("businessKey", businessKey, MAX_BUSINESS_KEY);
  }

  /**
   * Refuses a value longer than {@code max} characters or holding a Unicode control or format
   * character (NUL, line breaks, bidi overrides such as U+202E, zero-width characters).
   *
   * @throws InvalidTaskException naming the field
   */
  public static void validateText(String field, String value, int max) {
    if (value == null) {
      return;
    }
    if (value.length() > max) {
      throw new InvalidTaskException(field, "must be at most " + max + " characters");
    }
    for (int i = 0; i < value.length(); ) {
      int cp = value.codePointAt(i);
      int type = Character.getType(cp);
      if (type == Character.CONTROL || type == Character.FORMAT) {
        throw new InvalidTaskException(
            field,
            "must not contain control or format characters (found U+"
                + String.format("%04X", cp)
                + ")");
      }
      i += Character.charCount(cp);
    }
  }

  /**
   * Every parameter name and value: length caps, no control or format character.
   *
   * @throws InvalidTaskException naming the field (the parameter's name when it is printable)
   */
  public static void validateParams(Map<String, String> params) {
    for (Map.Entry<String, String> e : params.entrySet()) {
      String name = e.getKey();
      try {
        validateText("(field name)", name, MAX_PARAM_NAME);
      } catch (InvalidTaskException bad) {
        throw new InvalidTaskException("(field name)", "is not a valid field name");
      }
      validateText(name, e.getValue(), MAX_PARAM_VALUE);
    }
  }

  /**
   * @throws InvalidTaskException naming {@code priority}
   */
  public static void validatePriority(int priority) {
    if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
      throw new InvalidTaskException(
          "priority", "must be between " + MIN_PRIORITY + " and " + MAX_PRIORITY);
    }
  }

  /**
   * @throws InvalidTaskException naming {@code callbackUrl}
   */
  public static void validateCallbackUrl(String url) {
    validateText("callbackUrl", url, MAX_CALLBACK_URL);
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme();
      if (uri.getHost() != null
          && ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
        return;
      }
    } catch (URISyntaxException e) {
      // the uniform message below
    }
    throw new InvalidTaskException("callbackUrl", "must be an absolute http(s) URL");
  }
}

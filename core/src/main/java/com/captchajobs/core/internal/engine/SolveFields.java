package com.captchajobs.core.internal.engine;

import com.captchajobs.core.client.InvalidTaskException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The one validation of a solve's own fields (the provider parameters are {@code CaptchaTask}'s).
 * The Java API and through it the REST API call it when a request is built; messages name the
 * field.
 */
public final class SolveFields {

  /** Longest business key accepted. */
  public static final int MAX_BUSINESS_KEY = 200;

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
    if (businessKey.length() > MAX_BUSINESS_KEY) {
      throw new InvalidTaskException(
          "businessKey", "must be at most " + MAX_BUSINESS_KEY + " characters");
    }
    if (businessKey.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidTaskException("businessKey", "must not contain control characters");
    }
  }

  /**
   * @throws InvalidTaskException naming {@code callbackUrl}
   */
  public static void validateCallbackUrl(String url) {
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

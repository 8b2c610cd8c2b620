package com.captchajobs.core.client;

import java.util.Base64;
import java.util.Map;

/**
 * A normal image captcha, sent base64-encoded: in.php {@code method=base64}. {@link #toString()}
 * shows the body's length, not the body.
 *
 * @param body the image, standard base64 without line breaks; 100 B to 100 KiB once decoded
 * @param numeric 0 any, 1 digits only, 2 letters only, 3 digits or letters, 4 digits and letters
 * @param minLen shortest answer, 0..20 (0 = no limit)
 * @param maxLen longest answer, 0..20 (0 = no limit)
 */
public record ImageTask(
    String body,
    Integer numeric,
    Integer minLen,
    Integer maxLen,
    Boolean phrase,
    Boolean regsense,
    Boolean calc,
    String lang,
    String textInstructions)
    implements CaptchaTask {

  /** The provider rejects smaller images with ERROR_ZERO_CAPTCHA_FILESIZE. */
  public static final int MIN_IMAGE_BYTES = 100;

  /** The stricter of the documented limits (100 kB vs 1024 KB). */
  public static final int MAX_IMAGE_BYTES = 100 * 1024;

  /** Checks the body's encoding and size and the option ranges. */
  public ImageTask {
    Check.requiredUnbounded("body", body);
    checkImage(body);
    Check.range("numeric", numeric, 0, 4);
    Check.range("minLen", minLen, 0, 20);
    Check.range("maxLen", maxLen, 0, 20);
    if (minLen != null && maxLen != null && maxLen > 0 && minLen > maxLen) {
      throw new InvalidTaskException("minLen", "must not exceed maxLen");
    }
    Check.optional("lang", lang);
    Check.optional("textInstructions", textInstructions);
  }

  /** An image task from base64 text. */
  public static ImageTask of(String base64Body) {
    return new ImageTask(base64Body, null, null, null, null, null, null, null, null);
  }

  /** An image task from the image's bytes. */
  public static ImageTask of(byte[] image) {
    return of(Base64.getEncoder().encodeToString(image));
  }

  private static void checkImage(String body) {
    String range = "must decode to " + MIN_IMAGE_BYTES + ".." + MAX_IMAGE_BYTES + " bytes, got ";
    // Estimated from the length first, so an absurd body is not decoded just to be rejected.
    if (body.length() > (MAX_IMAGE_BYTES + 2) / 3 * 4) {
      throw new InvalidTaskException("body", range + "more");
    }
    int size;
    try {
      size = Base64.getDecoder().decode(body).length;
    } catch (IllegalArgumentException e) {
      throw new InvalidTaskException("body", "must be valid base64");
    }
    if (size < MIN_IMAGE_BYTES || size > MAX_IMAGE_BYTES) {
      throw new InvalidTaskException("body", range + size);
    }
  }

  /** Always null: an image has no page. */
  @Override
  public String pageUrl() {
    return null;
  }

  @Override
  public Map<String, String> formFields() {
    return TaskFields.Out.form()
        .put("method", "base64")
        .put("body", body)
        .put("numeric", numeric)
        .put("min_len", minLen)
        .put("max_len", maxLen)
        .flag("phrase", phrase)
        .flag("regsense", regsense)
        .flag("calc", calc)
        .put("lang", lang)
        .put("textinstructions", textInstructions)
        .toMap();
  }

  @Override
  public String toString() {
    return ("ImageTask[body=(%d base64 chars), numeric=%s, minLen=%s, maxLen=%s, phrase=%s,"
            + " regsense=%s, calc=%s, lang=%s, textInstructions=%s]")
        .formatted(
            body.length(), numeric, minLen, maxLen, phrase, regsense, calc, lang, textInstructions);
  }
}

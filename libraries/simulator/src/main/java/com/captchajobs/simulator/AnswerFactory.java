package com.captchajobs.simulator;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Makes plausible answers from the seeded random source: tokens, clearances, GeeTest triples, text.
 */
final class AnswerFactory {
  static final String USER_AGENT =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
          + " Chrome/124.0.0.0 Safari/537.36";
  private static final String TOKEN_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private static final String TEXT_CHARS = "abcdefghijkmnpqrstuvwxyz23456789";

  private final Random random;

  AnswerFactory(Random random) {
    this.random = random;
  }

  Answer answerFor(Submission s, long nowMillis) {
    synchronized (random) { // one draw sequence per answer keeps answers reproducible
      return switch (s.method()) {
        case "userrecaptcha" -> {
          String token = "03AGdBq2" + chars(TOKEN_CHARS, 40 + random.nextInt(160));
          yield s.enterprise()
              ? new Answer(token, token, USER_AGENT)
              : new Answer(token, null, null);
        }
        case "turnstile" ->
            new Answer("0." + chars(TOKEN_CHARS, 120 + random.nextInt(80)), null, null);
        case "cloudflare_challenge" -> {
          String clearance =
              chars(TOKEN_CHARS, 43)
                  + "-"
                  + nowMillis / 1000
                  + "-1.0.1.1-"
                  + chars(TOKEN_CHARS, 40);
          yield new Answer(clearance, clearance, USER_AGENT);
        }
        case "geetest" ->
            new Answer(s.geetestV4() ? geetestV4(s.siteKey(), nowMillis) : geetestV3(), null, null);
        default -> new Answer(chars(TEXT_CHARS, 5 + random.nextInt(2)), null, null);
      };
    }
  }

  /** GeeTest answers travel as a JSON object inside the {@code request} string. */
  private String geetestV3() {
    Map<String, String> answer = new LinkedHashMap<>();
    answer.put("challenge", hex(16));
    answer.put("validate", hex(16));
    answer.put("seccode", hex(16) + "|jordan");
    return Json.write(answer);
  }

  private String geetestV4(String captchaId, long nowMillis) {
    Map<String, String> answer = new LinkedHashMap<>();
    answer.put("captcha_id", captchaId);
    answer.put("lot_number", hex(16));
    answer.put("pass_token", hex(32));
    answer.put("gen_time", Long.toString(nowMillis / 1000));
    answer.put("captcha_output", chars(TOKEN_CHARS, 64));
    return Json.write(answer);
  }

  private String hex(int bytes) {
    byte[] b = new byte[bytes];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private String chars(String alphabet, int length) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }
}

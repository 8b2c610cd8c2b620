package com.captchajobs.bench;

import com.captchajobs.core.client.CaptchaType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The share of each captcha type in a run ({@code TURNSTILE:0.6,RECAPTCHA_V2:0.3,IMAGE:0.1}) and
 * the parameters of one solve: every solve has its own page URL (or image), so the simulator can
 * count submits per business key.
 */
public record TypeMix(Map<CaptchaType, Double> weights) {

  /** Types the harness can drive, with the simulator's method name (for solve-time overrides). */
  static final Map<CaptchaType, String> SUPPORTED =
      Map.of(
          CaptchaType.TURNSTILE, "turnstile",
          CaptchaType.RECAPTCHA_V2, "userrecaptcha",
          CaptchaType.IMAGE, "base64");

  /** The simulator's default solve-time ranges in seconds, before the time scale. */
  static final Map<CaptchaType, double[]> DEFAULT_SOLVE_SECONDS =
      Map.of(
          CaptchaType.TURNSTILE, new double[] {3, 9},
          CaptchaType.RECAPTCHA_V2, new double[] {12, 40},
          CaptchaType.IMAGE, new double[] {1, 4});

  public static TypeMix parse(String text) {
    Map<CaptchaType, Double> w = new LinkedHashMap<>();
    for (String part : text.split(",")) {
      String[] kv = part.trim().split(":");
      CaptchaType type = CaptchaType.valueOf(kv[0].trim().toUpperCase());
      if (!SUPPORTED.containsKey(type)) {
        throw new IllegalArgumentException(
            "--mix supports " + SUPPORTED.keySet() + ", got " + type);
      }
      double weight = kv.length > 1 ? Double.parseDouble(kv[1]) : 1.0;
      if (weight <= 0) {
        throw new IllegalArgumentException("--mix weight of " + type + " must be positive");
      }
      w.put(type, weight);
    }
    return new TypeMix(Collections.unmodifiableMap(w));
  }

  /** N types in these proportions (largest remainder), shuffled with the seed. */
  public List<CaptchaType> draw(int n, long seed) {
    double total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
    Map<CaptchaType, Integer> counts = new EnumMap<>(CaptchaType.class);
    Map<CaptchaType, Double> remainders = new EnumMap<>(CaptchaType.class);
    int assigned = 0;
    for (var e : weights.entrySet()) {
      double exact = n * e.getValue() / total;
      counts.put(e.getKey(), (int) Math.floor(exact));
      remainders.put(e.getKey(), exact - Math.floor(exact));
      assigned += (int) Math.floor(exact);
    }
    List<CaptchaType> byRemainder = new ArrayList<>(remainders.keySet());
    byRemainder.sort((a, b) -> Double.compare(remainders.get(b), remainders.get(a)));
    for (int i = 0; assigned < n; i++, assigned++) {
      counts.merge(byRemainder.get(i % byRemainder.size()), 1, Integer::sum);
    }
    List<CaptchaType> out = new ArrayList<>(n);
    counts.forEach((type, c) -> out.addAll(Collections.nCopies(c, type)));
    Collections.shuffle(out, new Random(seed));
    return out;
  }

  /** Mean solve time in seconds of this mix on the simulator's default ranges, scaled. */
  public double expectedMeanSolveSeconds(double timeScale) {
    double total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
    double mean = 0;
    for (var e : weights.entrySet()) {
      double[] r = DEFAULT_SOLVE_SECONDS.get(e.getKey());
      mean += e.getValue() / total * (r[0] + r[1]) / 2;
    }
    return mean * timeScale;
  }

  /** The page a solve's captcha is on; the simulator counts submits per page URL. */
  public static String pageUrl(String businessKey) {
    return "https://bench.example.test/" + businessKey;
  }

  /**
   * The parameters of a solve. {@code permanent} makes the provider reject it at in.php with
   * ERROR_BAD_TOKEN_OR_PAGEURL (the simulator's site key {@code invalid}).
   */
  public static Map<String, String> params(
      CaptchaType type, String businessKey, boolean permanent) {
    String siteKey = permanent ? "invalid" : null;
    return switch (type) {
      case TURNSTILE ->
          Map.of(
              "sitekey",
              siteKey != null ? siteKey : "0x4AAAAAAADnPIDROrmt1Wwj",
              "pageUrl",
              pageUrl(businessKey));
      case RECAPTCHA_V2 ->
          Map.of(
              "sitekey",
              siteKey != null ? siteKey : "6Le-wvkSAAAAAPBMRTvw0Q4Muexq9bi0DJwx_mJ-",
              "pageUrl",
              pageUrl(businessKey));
      case IMAGE -> Map.of("body", imageBody(businessKey));
      default -> throw new IllegalArgumentException("unsupported type " + type);
    };
  }

  /**
   * What the provider's task records call this solve's task: its page URL, or {@code sha256:<hex>}
   * of its image bytes (the simulator's {@code TaskRecord.subject}).
   */
  public static String subject(CaptchaType type, String businessKey) {
    if (type != CaptchaType.IMAGE) {
      return pageUrl(businessKey);
    }
    try {
      byte[] bytes = Base64.getDecoder().decode(imageBody(businessKey));
      return "sha256:"
          + java.util.HexFormat.of()
              .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }

  /** A unique image of at least 100 bytes per business key (the simulator checks size only). */
  static String imageBody(String businessKey) {
    StringBuilder sb = new StringBuilder("bench-image:").append(businessKey).append(':');
    while (sb.length() < 128) {
      sb.append('#');
    }
    return Base64.getEncoder().encodeToString(sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    weights.forEach((t, w) -> parts.add(t + ":" + w));
    return String.join(",", parts);
  }
}

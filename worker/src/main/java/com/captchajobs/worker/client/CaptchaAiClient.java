package com.captchajobs.worker.client;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * Plain-Java client for CaptchaAI's in.php/res.php API. Immutable and thread-safe; build one per
 * API key and share it.
 *
 * <pre>{@code
 * CaptchaAiClient client = CaptchaAiClient.builder().apiKey(key).build();
 * String taskId = client.submit(TurnstileTask.of(sitekey, pageUrl));
 * PollResult result = client.get(taskId); // NotReady or Solved; failures throw CaptchaAiException
 * }</pre>
 */
public final class CaptchaAiClient {

  /** CaptchaAI's production host. */
  public static final String DEFAULT_BASE_URL = "https://ocr.captchaai.com";
  /** Connect timeout unless set. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** Read timeout unless set. */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
  /** Whole-call timeout unless set. */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(60);
  /** User-Agent header unless set. */
  public static final String DEFAULT_USER_AGENT = "captchajobs/0.1";

  private final String apiKey;
  private final HttpUrl baseUrl;
  private final Duration connectTimeout;
  private final Duration readTimeout;
  private final Duration callTimeout;
  private final String userAgent;
  /** The caller's (or our own) client before our settings: {@link #newBuilder()} derives from it. */
  private final OkHttpClient baseHttpClient;
  private final OkHttpClient httpClient;

  private CaptchaAiClient(Builder builder) {
    this.apiKey = builder.apiKey;
    this.baseUrl = builder.parsedBaseUrl();
    this.connectTimeout = builder.connectTimeout;
    this.readTimeout = builder.readTimeout;
    this.callTimeout = builder.callTimeout;
    this.userAgent = builder.userAgent;
    this.baseHttpClient = builder.okHttpClient != null ? builder.okHttpClient : new OkHttpClient();
    this.httpClient = configure(baseHttpClient.newBuilder()).build();
  }

  /**
   * The one place our OkHttp settings and interceptors are installed. Order matters: logging is
   * outermost so it sees the call as made and times all of it; User-Agent is set inside it.
   */
  private OkHttpClient.Builder configure(OkHttpClient.Builder builder) {
    return builder
        .connectTimeout(connectTimeout)
        .readTimeout(readTimeout)
        .writeTimeout(readTimeout)
        .callTimeout(callTimeout);
  }

  /** A builder with every default. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this client's settings; clients it builds share this one's pools. */
  public Builder newBuilder() {
    return new Builder()
        .apiKey(apiKey)
        .baseUrl(baseUrl())
        .connectTimeout(connectTimeout)
        .readTimeout(readTimeout)
        .callTimeout(callTimeout)
        .userAgent(userAgent)
        .okHttpClient(baseHttpClient);
  }

  /** Submits a task (in.php) and returns its id; ids that arrive as JSON numbers become strings. */
  public String submit(CaptchaTask task) {
    throw new UnsupportedOperationException("stage 2");
  }

  /**
   * Polls a task (res.php {@code action=get}). {@code CAPCHA_NOT_READY} is a {@link
   * PollResult.NotReady}, not an exception.
   *
   * @throws CaptchaAiApiException with {@link CaptchaAiException#taskId()} set, for error codes
   */
  public PollResult get(String taskId) {
    throw new UnsupportedOperationException("stage 2");
  }

  /** The key's thread counts (res.php {@code threadsinfo}). */
  public ThreadsInfo threadsInfo() {
    throw new UnsupportedOperationException("stage 2");
  }

  /** res.php {@code getbalance} as a decimal; sources disagree on its unit, so none is assumed. */
  public BigDecimal balance() {
    throw new UnsupportedOperationException("stage 2");
  }

  /** Reports a wrong answer; duplicate or unrecorded reports are ignored. */
  public void reportBad(String taskId) {
    throw new UnsupportedOperationException("stage 2");
  }

  /** Reports a right answer; duplicate or unrecorded reports are ignored. */
  public void reportGood(String taskId) {
    throw new UnsupportedOperationException("stage 2");
  }

  /** The first 16 hex characters of SHA-256(key): names the key in logs without revealing it. */
  public String keyFingerprint() {
    return fingerprint(apiKey);
  }

  static String fingerprint(String key) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** The base URL without a trailing slash. */
  public String baseUrl() {
    String url = baseUrl.toString();
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  @Override
  public String toString() {
    return "CaptchaAiClient{baseUrl=" + baseUrl() + ", key=sha256:" + keyFingerprint() + "}";
  }

  /** Configures a {@link CaptchaAiClient}; only {@link #apiKey} is required. */
  public static final class Builder {
    private String apiKey;
    private String baseUrl = DEFAULT_BASE_URL;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration readTimeout = DEFAULT_READ_TIMEOUT;
    private Duration callTimeout = DEFAULT_CALL_TIMEOUT;
    private OkHttpClient okHttpClient;
    private String userAgent = DEFAULT_USER_AGENT;

    private Builder() {}

    /** The CaptchaAI API key. Required; no default. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** Where in.php and res.php live. Default {@value CaptchaAiClient#DEFAULT_BASE_URL}. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
      return this;
    }

    /** TCP connect timeout; zero means none. Default {@link CaptchaAiClient#DEFAULT_CONNECT_TIMEOUT} (10 s). */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = nonNegative("connectTimeout", connectTimeout);
      return this;
    }

    /** Socket read (and write) timeout; zero means none. Default {@link CaptchaAiClient#DEFAULT_READ_TIMEOUT} (30 s). */
    public Builder readTimeout(Duration readTimeout) {
      this.readTimeout = nonNegative("readTimeout", readTimeout);
      return this;
    }

    /** Whole-call timeout; zero means none. Default {@link CaptchaAiClient#DEFAULT_CALL_TIMEOUT} (60 s). */
    public Builder callTimeout(Duration callTimeout) {
      this.callTimeout = nonNegative("callTimeout", callTimeout);
      return this;
    }

    /**
     * A shared base client whose pools and dispatcher to reuse; the built client derives its own
     * with {@link OkHttpClient#newBuilder()}. Default: a new {@link OkHttpClient}.
     */
    public Builder okHttpClient(OkHttpClient okHttpClient) {
      this.okHttpClient = Objects.requireNonNull(okHttpClient, "okHttpClient");
      return this;
    }

    /** The User-Agent header. Default {@value CaptchaAiClient#DEFAULT_USER_AGENT}. */
    public Builder userAgent(String userAgent) {
      if (userAgent == null || userAgent.isBlank()) {
        throw new IllegalArgumentException("userAgent must not be blank");
      }
      this.userAgent = userAgent;
      return this;
    }

    /** @throws IllegalStateException "apiKey is required" when no key or a blank one was set */
    public CaptchaAiClient build() {
      if (apiKey == null || apiKey.isBlank()) {
        throw new IllegalStateException("apiKey is required");
      }
      return new CaptchaAiClient(this);
    }

    private HttpUrl parsedBaseUrl() {
      HttpUrl url = HttpUrl.parse(baseUrl);
      if (url == null) {
        throw new IllegalStateException("baseUrl must be an http(s) URL: " + baseUrl);
      }
      return url;
    }

    private static Duration nonNegative(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isNegative()) {
        throw new IllegalArgumentException(name + " must not be negative");
      }
      return value;
    }
  }
}

package com.captchajobs.core.client;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

  private static final Logger log = LoggerFactory.getLogger(CaptchaAiClient.class);

  private final String apiKey;
  private final HttpUrl baseUrl;
  private final Duration connectTimeout;
  private final Duration readTimeout;
  private final Duration callTimeout;
  private final String userAgent;

  /**
   * The caller's (or our own) client before our settings: {@link #newBuilder()} derives from it.
   */
  private final OkHttpClient baseHttpClient;

  private final OkHttpClient httpClient;
  private final HttpUrl inUrl;
  private final HttpUrl resUrl;
  private final FormPost post;

  private CaptchaAiClient(Builder builder) {
    this.apiKey = builder.apiKey;
    this.baseUrl = builder.parsedBaseUrl();
    this.connectTimeout = builder.connectTimeout;
    this.readTimeout = builder.readTimeout;
    this.callTimeout = builder.callTimeout;
    this.userAgent = builder.userAgent;
    this.baseHttpClient = builder.okHttpClient != null ? builder.okHttpClient : new OkHttpClient();
    this.httpClient = configure(baseHttpClient.newBuilder()).build();
    this.inUrl = baseUrl.newBuilder().addPathSegment("in.php").build();
    this.resUrl = baseUrl.newBuilder().addPathSegment("res.php").build();
    this.post = new FormPost(httpClient, apiKey);
  }

  /**
   * The one place our OkHttp settings and interceptors are installed. Order matters: logging is
   * outermost so it sees the call as made and times all of it; User-Agent is set inside it. OkHttp
   * never resends a call on its own (no retry on connection failure): an in.php POST that may have
   * reached the provider is resent only when the engine decides so. Nor does it follow a redirect:
   * a 307 or 308 would re-post the form, API key included, to wherever {@code Location} points; a
   * 3xx is a transient error naming the {@code Location} host only.
   */
  private OkHttpClient.Builder configure(OkHttpClient.Builder builder) {
    return builder
        .retryOnConnectionFailure(false)
        .followRedirects(false)
        .followSslRedirects(false)
        .connectTimeout(connectTimeout)
        .readTimeout(readTimeout)
        .writeTimeout(readTimeout)
        .callTimeout(callTimeout)
        .addInterceptor(new KeyRedactingLoggingInterceptor())
        .addInterceptor(new UserAgentInterceptor(userAgent));
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
    return submit(task, null);
  }

  /**
   * Submits a task (in.php) asking the provider to push its answer to {@code pingbackUrl} ({@code
   * GET <url>?id=<task id>&code=<answer>}) when it is done; without a URL (null) as {@link
   * #submit(CaptchaTask)}. The URL is sent as the form field {@code pingback}; the debug log shows
   * only its length, since it carries a secret.
   */
  public String submit(CaptchaTask task, String pingbackUrl) {
    Objects.requireNonNull(task, "task");
    Map<String, String> fields = task.formFields();
    if (pingbackUrl != null) {
      fields = new LinkedHashMap<>(fields);
      fields.put("pingback", pingbackUrl);
    }
    Reply reply = post.call(inUrl, fields, null);
    if (reply instanceof Reply.Ok ok) {
      return ok.value();
    }
    throw FormPost.failure(reply, null);
  }

  /**
   * Polls a task (res.php {@code action=get}). {@code CAPCHA_NOT_READY} is a {@link
   * PollResult.NotReady}, not an exception.
   *
   * @throws CaptchaAiApiException with {@link CaptchaAiException#taskId()} set, for error codes
   */
  public PollResult get(String taskId) {
    Reply reply = post.call(resUrl, FormPost.action("get", FormPost.requireTaskId(taskId)), taskId);
    if (reply instanceof Reply.Ok ok) {
      return new PollResult.Solved(ok.value(), ok.userAgent());
    }
    if (reply instanceof Reply.Code code && ErrorClass.of(code.code()) == ErrorClass.NOT_READY) {
      return new PollResult.NotReady();
    }
    throw FormPost.failure(reply, taskId);
  }

  /** The key's thread counts (res.php {@code threadsinfo}). */
  public ThreadsInfo threadsInfo() {
    Reply reply = post.call(resUrl, FormPost.action("threadsinfo", null), null);
    if (reply instanceof Reply.Bare bare) {
      Integer threads = FormPost.count(bare.object().get("threads"));
      Integer working = FormPost.count(bare.object().get("working_threads"));
      if (threads != null && working != null) {
        return new ThreadsInfo(threads, working);
      }
      throw new CaptchaAiTransportException(
          CaptchaAiTransportException.UNRECOGNISED_BODY, null, "no thread counts", null);
    }
    throw FormPost.failure(reply, null);
  }

  /** res.php {@code getbalance} as a decimal; sources disagree on its unit, so none is assumed. */
  public BigDecimal balance() {
    Reply reply = post.call(resUrl, FormPost.action("getbalance", null), null);
    if (reply instanceof Reply.Ok ok) {
      try {
        return new BigDecimal(ok.value().strip());
      } catch (NumberFormatException e) {
        throw new CaptchaAiTransportException(
            CaptchaAiTransportException.UNRECOGNISED_BODY, null, "balance is not a number", null);
      }
    }
    throw FormPost.failure(reply, null);
  }

  /** Reports a wrong answer; duplicate or unrecorded reports are ignored. */
  public void reportBad(String taskId) {
    report("reportbad", taskId);
  }

  /** Reports a right answer; duplicate or unrecorded reports are ignored. */
  public void reportGood(String taskId) {
    report("reportgood", taskId);
  }

  /**
   * Reports an answer with {@code verdict}'s action; as {@link #reportBad} or {@link #reportGood}.
   */
  public void report(String taskId, Verdict verdict) {
    Objects.requireNonNull(verdict, "verdict");
    report(verdict.action(), taskId);
  }

  private void report(String action, String taskId) {
    Reply reply =
        post.call(resUrl, FormPost.action(action, FormPost.requireTaskId(taskId)), taskId);
    if (reply instanceof Reply.Ok) {
      return;
    }
    // A lost report costs nothing, so report bookkeeping errors must not fail the caller's job.
    if (reply instanceof Reply.Code code && FormPost.IGNORED_REPORT_CODES.contains(code.code())) {
      log.debug("{} for task {} not recorded: {}", action, taskId, code.code());
      return;
    }
    throw FormPost.failure(reply, taskId);
  }

  /**
   * Registers an address the provider may push answers to (res.php {@code add_pingback}, as
   * 2captcha-style services require before they push). Returns the provider's answer as text: the
   * value of an OK, or the code it answered (an unknown action included); never throws for a code.
   *
   * @throws CaptchaAiTransportException when the provider could not be reached or read
   */
  public String addPingback(String addr) {
    Objects.requireNonNull(addr, "addr");
    Map<String, String> fields = FormPost.action("add_pingback", null);
    fields.put("addr", addr);
    return FormPost.describe(post.call(resUrl, fields, null));
  }

  /**
   * The addresses registered for pushes (res.php {@code get_pingback}), as the provider's answer in
   * text: the value of an OK, or the code it answered; never throws for a code.
   *
   * @throws CaptchaAiTransportException when the provider could not be reached or read
   */
  public String pingbackAddresses() {
    return FormPost.describe(post.call(resUrl, FormPost.action("get_pingback", null), null));
  }

  /** The first 16 hex characters of SHA-256(key): names the key in logs without revealing it. */
  public String keyFingerprint() {
    return KeyFingerprint.of(apiKey);
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

    /**
     * TCP connect timeout; zero means none. Default {@link CaptchaAiClient#DEFAULT_CONNECT_TIMEOUT}
     * (10 s).
     */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = nonNegative("connectTimeout", connectTimeout);
      return this;
    }

    /**
     * Socket read (and write) timeout; zero means none. Default {@link
     * CaptchaAiClient#DEFAULT_READ_TIMEOUT} (30 s).
     */
    public Builder readTimeout(Duration readTimeout) {
      this.readTimeout = nonNegative("readTimeout", readTimeout);
      return this;
    }

    /**
     * Whole-call timeout; zero means none. Default {@link CaptchaAiClient#DEFAULT_CALL_TIMEOUT} (60
     * s).
     */
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

    /**
     * @throws IllegalStateException "apiKey is required" when no key or a blank one was set
     */
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

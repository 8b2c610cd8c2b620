package com.captchajobs.core.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
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

  /** Report replies that mean "not counted", which is no reason to fail the caller. */
  private static final Set<String> IGNORED_REPORT_CODES =
      Set.of("ERROR_DUPLICATE_REPORT", "REPORT_NOT_RECORDED");

  /** Replies are a few hundred bytes; anything near this is not CaptchaAI talking. */
  private static final int MAX_BODY_BYTES = 1024 * 1024;

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
  }

  /**
   * The one place our OkHttp settings and interceptors are installed. Order matters: logging is
   * outermost so it sees the call as made and times all of it; User-Agent is set inside it. OkHttp
   * never resends a call on its own (no retry on connection failure): an in.php POST that may have
   * reached the provider is resent only when the engine decides so.
   */
  private OkHttpClient.Builder configure(OkHttpClient.Builder builder) {
    return builder
        .retryOnConnectionFailure(false)
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
    Reply reply = call(inUrl, fields, null);
    if (reply instanceof Reply.Ok ok) {
      return ok.value();
    }
    throw failure(reply, null);
  }

  /**
   * Polls a task (res.php {@code action=get}). {@code CAPCHA_NOT_READY} is a {@link
   * PollResult.NotReady}, not an exception.
   *
   * @throws CaptchaAiApiException with {@link CaptchaAiException#taskId()} set, for error codes
   */
  public PollResult get(String taskId) {
    Reply reply = call(resUrl, action("get", requireTaskId(taskId)), taskId);
    if (reply instanceof Reply.Ok ok) {
      return new PollResult.Solved(ok.value(), ok.userAgent());
    }
    if (reply instanceof Reply.Code code && ErrorClass.of(code.code()) == ErrorClass.NOT_READY) {
      return new PollResult.NotReady();
    }
    throw failure(reply, taskId);
  }

  /** The key's thread counts (res.php {@code threadsinfo}). */
  public ThreadsInfo threadsInfo() {
    Reply reply = call(resUrl, action("threadsinfo", null), null);
    if (reply instanceof Reply.Bare bare) {
      Integer threads = count(bare.object().get("threads"));
      Integer working = count(bare.object().get("working_threads"));
      if (threads != null && working != null) {
        return new ThreadsInfo(threads, working);
      }
      throw new CaptchaAiTransportException(
          CaptchaAiTransportException.UNRECOGNISED_BODY, null, "no thread counts", null);
    }
    throw failure(reply, null);
  }

  /** res.php {@code getbalance} as a decimal; sources disagree on its unit, so none is assumed. */
  public BigDecimal balance() {
    Reply reply = call(resUrl, action("getbalance", null), null);
    if (reply instanceof Reply.Ok ok) {
      try {
        return new BigDecimal(ok.value().strip());
      } catch (NumberFormatException e) {
        throw new CaptchaAiTransportException(
            CaptchaAiTransportException.UNRECOGNISED_BODY, null, "balance is not a number", null);
      }
    }
    throw failure(reply, null);
  }

  /** Reports a wrong answer; duplicate or unrecorded reports are ignored. */
  public void reportBad(String taskId) {
    report("reportbad", taskId);
  }

  /** Reports a right answer; duplicate or unrecorded reports are ignored. */
  public void reportGood(String taskId) {
    report("reportgood", taskId);
  }

  private void report(String action, String taskId) {
    Reply reply = call(resUrl, action(action, requireTaskId(taskId)), taskId);
    if (reply instanceof Reply.Ok) {
      return;
    }
    // A lost report costs nothing, so report bookkeeping errors must not fail the caller's job.
    if (reply instanceof Reply.Code code && IGNORED_REPORT_CODES.contains(code.code())) {
      log.debug("{} for task {} not recorded: {}", action, taskId, code.code());
      return;
    }
    throw failure(reply, taskId);
  }

  /** POSTs {@code key}, {@code json=1} and the fields as a form and decodes the 2xx body. */
  private Reply call(HttpUrl url, Map<String, String> fields, String taskId) {
    FormBody.Builder form = new FormBody.Builder().add("key", apiKey).add("json", "1");
    fields.forEach(form::add);
    Request request = new Request.Builder().url(url).post(form.build()).build();
    try (Response response = httpClient.newCall(request).execute()) {
      byte[] bytes = response.peekBody(MAX_BODY_BYTES + 1L).bytes();
      String body = new String(bytes, StandardCharsets.UTF_8);
      if (!response.isSuccessful()) {
        String detail = Reply.looksLikeHtml(body) ? "HTML page" : null;
        throw new CaptchaAiTransportException(
            CaptchaAiTransportException.httpCode(response.code()), taskId, detail, null);
      }
      if (bytes.length > MAX_BODY_BYTES) {
        throw new CaptchaAiTransportException(
            CaptchaAiTransportException.UNRECOGNISED_BODY, taskId, "body over 1 MiB", null);
      }
      Reply reply = Reply.parse(body);
      if (reply instanceof Reply.Garbled garbled) {
        throw new CaptchaAiTransportException(garbled.code(), taskId, garbled.detail(), null);
      }
      return reply;
    } catch (IOException e) {
      String code =
          isTimeout(e) ? CaptchaAiTransportException.TIMEOUT : CaptchaAiTransportException.NETWORK;
      throw new CaptchaAiTransportException(code, taskId, e.getClass().getSimpleName(), e);
    }
  }

  private static boolean isTimeout(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InterruptedIOException && !Thread.currentThread().isInterrupted()) {
        return true;
      }
    }
    return false;
  }

  /** The exception for a reply the caller did not expect: a code, or a shape it cannot use. */
  private static CaptchaAiException failure(Reply reply, String taskId) {
    if (reply instanceof Reply.Code code) {
      return new CaptchaAiApiException(code.code(), taskId);
    }
    String shape = reply instanceof Reply.Bare ? "JSON without status" : "unexpected answer";
    return new CaptchaAiTransportException(
        CaptchaAiTransportException.UNRECOGNISED_BODY, taskId, shape, null);
  }

  /** The res.php fields after key and json: action, then id when there is one. */
  private static Map<String, String> action(String action, String taskId) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("action", action);
    if (taskId != null) {
      fields.put("id", taskId);
    }
    return fields;
  }

  private static String requireTaskId(String taskId) {
    if (taskId == null || taskId.isBlank()) {
      throw new IllegalArgumentException("taskId must not be blank");
    }
    return taskId;
  }

  /** {@code threads} arrives as a string and {@code working_threads} as a number: take both. */
  private static Integer count(JsonNode node) {
    if (node == null || !node.isValueNode()) {
      return null;
    }
    try {
      return Integer.valueOf(node.asText().strip());
    } catch (NumberFormatException e) {
      return null;
    }
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

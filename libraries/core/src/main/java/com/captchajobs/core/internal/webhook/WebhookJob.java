package com.captchajobs.core.internal.webhook;

import com.captchajobs.core.internal.egress.WebhookEgress;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveEvents;
import com.captchajobs.core.internal.store.SolveRepository;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.jobrunr.JobRunrException;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a solve's outcome to its {@code callback_url}: a signed JSON POST. Anything but a 2xx
 * answer throws, so the deliveries' own JobRunr retries with the webhook backoff ({@link
 * WebhookDeliveries}, {@link WebhookRetryFilter}); the row is read at delivery time, so a retry
 * reports the same outcome with fresh timestamps.
 */
public class WebhookJob implements JobRequestHandler<WebhookJobRequest> {

  private static final Logger log = LoggerFactory.getLogger(WebhookJob.class);
  private static final MediaType JSON = MediaType.get("application/json");

  private final SolveRepository repository;
  private final OkHttpClient http;
  private final Function<String, WebhookSigner> signers;
  private final WebhookEgress egress;
  private final boolean includeToken;
  private final Clock clock;
  private final ObjectMapper json = JsonMapper.builder().build();

  /**
   * @param signers the signer of a client's webhooks (its own secret, else the node's); null when
   *     neither is configured
   * @param egress where deliveries may go, checked at delivery time
   */
  public WebhookJob(
      SolveRepository repository,
      OkHttpClient http,
      Function<String, WebhookSigner> signers,
      WebhookEgress egress,
      boolean includeToken,
      Clock clock) {
    this.repository = repository;
    OkHttpClient.Builder own = http.newBuilder().followRedirects(false).followSslRedirects(false);
    if (http.proxy() == null) {
      own.proxy(Proxy.NO_PROXY); // a proxy only when one was given explicitly
    }
    this.http = own.build();
    this.signers = signers;
    this.egress = egress;
    this.includeToken = includeToken;
    this.clock = clock;
  }

  @Override
  public void run(WebhookJobRequest request) {
    Solve solve = repository.find(request.solveId()).orElse(null);
    if (solve == null) {
      // Retention deleted it, or it never was: nothing to report, and no retry can change that.
      // The job then ends here, so this is said once per delivery.
      log.warn(
          "Webhook {} of solve {} dropped: the solve is gone (deleted by retention?)",
          request.status(),
          request.solveId());
      return;
    }
    if (solve.callbackUrl() == null) {
      return;
    }
    String client = repository.clientOf(solve.id()).orElse(SolveRepository.JAVA_API_CLIENT);
    WebhookSigner signer = signers.apply(client);
    if (signer == null) {
      // Unsigned outcomes would be forgeable; retrying cannot help until an operator sets it.
      throw new JobRunrException(
          "captchajobs.webhook.secret is not set: webhook of solve " + solve.id() + " not sent",
          true);
    }
    HttpUrl url = HttpUrl.parse(solve.callbackUrl());
    if (url == null) {
      throw new JobRunrException("webhook of solve " + solve.id() + ": bad callback URL", true);
    }
    OkHttpClient pinned;
    try {
      List<InetAddress> addresses = egress.check(url);
      pinned = http.newBuilder().dns(WebhookEgress.pinned(url, addresses)).build();
    } catch (WebhookEgress.RefusedException e) {
      record(solve, request.status() + ": refused by egress rules");
      log.warn("Webhook of solve {} not sent: {}", solve.id(), e.getMessage());
      throw new JobRunrException(e.getMessage(), true);
    } catch (UnknownHostException e) {
      throw new WebhookDeliveryException(
          "webhook of solve " + solve.id() + ": host " + url.host() + " does not resolve");
    }
    Instant now = clock.instant();
    byte[] body = body(solve, client, request, now);
    Request post =
        new Request.Builder()
            .url(solve.callbackUrl())
            .header(WebhookSigner.SIGNATURE_HEADER, signer.sign(body))
            .header(WebhookSigner.TIMESTAMP_HEADER, String.valueOf(now.getEpochSecond()))
            .post(RequestBody.create(body, JSON))
            .build();
    String host = url.host();
    try (Response response = pinned.newCall(post).execute()) {
      record(solve, request.status() + " to " + host + ": HTTP " + response.code());
      if (!response.isSuccessful()) {
        throw new WebhookDeliveryException(
            "webhook of solve " + solve.id() + " to " + host + " answered HTTP " + response.code());
      }
      log.info(
          "Webhook {} of solve {} ({}) delivered to {}",
          request.status(),
          solve.id(),
          solve.businessKey(),
          host);
    } catch (IOException e) {
      String failure = e.getClass().getSimpleName();
      record(solve, request.status() + " to " + host + ": " + failure);
      throw new WebhookDeliveryException(
          "webhook of solve %s to %s failed: %s".formatted(solve.id(), host, failure));
    }
  }

  private void record(Solve solve, String what) {
    repository.events().record(solve.id(), SolveEvents.WEBHOOK, what);
  }

  /**
   * The client deliveries use: no redirect followed, and no proxy: the JVM's proxy settings ({@code
   * https.proxyHost}, {@code socksProxyHost}, a default {@link java.net.ProxySelector}) would hand
   * the unresolved host to the proxy, so the addresses checked and pinned would not be the ones
   * connected to.
   */
  public static OkHttpClient httpClient(Duration attemptTimeout) {
    return new OkHttpClient.Builder()
        .proxy(Proxy.NO_PROXY)
        .connectTimeout(attemptTimeout)
        .readTimeout(attemptTimeout)
        .callTimeout(attemptTimeout.multipliedBy(2))
        .followRedirects(false)
        .followSslRedirects(false)
        .build();
  }

  /**
   * The outcome as JSON, naming the client the solve belongs to; the token only when configured and
   * still stored.
   */
  byte[] body(Solve solve, String client, WebhookJobRequest request, Instant now) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", solve.id().toString());
    out.put("client", client);
    out.put("businessKey", solve.businessKey());
    out.put("type", solve.type().name());
    out.put("status", request.status().name());
    out.put("currentStatus", solve.status().name());
    out.put("errorCode", solve.errorCode());
    out.put("errorClass", solve.errorClass());
    out.put("createdAt", text(solve.createdAt()));
    out.put("submittedAt", text(solve.submittedAt()));
    out.put("solvedAt", text(solve.solvedAt()));
    out.put("expiresAt", text(solve.expiresAt()));
    out.put("claimedAt", text(solve.claimedAt()));
    out.put("timestamp", now.getEpochSecond());
    if (includeToken) {
      repository.token(solve.id()).ifPresent(t -> out.put("token", t));
    }
    try {
      return json.writeValueAsBytes(out);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Could not write JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}

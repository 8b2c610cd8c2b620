package com.captchajobs.app.web;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.model.ClaimedToken;
import com.captchajobs.core.model.SolveStatusView;
import com.captchajobs.node.security.ApiClient;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The REST API of solves. Spring Security has authenticated the client before it (see {@link
 * ApiConfiguration}); every call acts on that client's solves only, so another client's solve is
 * answered exactly as an unknown one.
 */
@RestController
@RequestMapping("/api/solves")
class SolvesController {

  /** How long a client over its cap of unfinished solves is told to wait. */
  static final Duration UNFINISHED_RETRY_AFTER = Duration.ofSeconds(5);

  private final Solves solves;
  private final ApiProperties properties;
  private final SolveRequestJson json = new SolveRequestJson();
  private final ReportJson reportJson = new ReportJson();
  private final ExecutorService events;
  private final EnqueueRateLimiter rateLimiter;
  private final StreamSlots streamSlots;

  SolvesController(
      Solves solves,
      ApiProperties properties,
      ThreadPoolExecutor captchaJobsSseExecutor,
      EnqueueRateLimiter rateLimiter,
      StreamSlots streamSlots) {
    this.solves = solves;
    this.properties = properties;
    this.events = captchaJobsSseExecutor;
    this.rateLimiter = rateLimiter;
    this.streamSlots = streamSlots;
  }

  private Solves solvesOf(ApiClient client) {
    return solves.asClient(client.name());
  }

  /**
   * 202 for a new solve, 200 for the existing one with the same key and payload; 409 otherwise; 429
   * over the client's rate or cap of unfinished solves (nothing stored). The rate is taken before
   * the body is read, so a client over it costs no parsing.
   */
  @PostMapping
  ResponseEntity<Map<String, Object>> enqueue(
      HttpServletRequest request, @AuthenticationPrincipal ApiClient client) throws IOException {
    rateLimiter
        .tryAcquire(client)
        .ifPresent(
            wait -> {
              throw ApiProblem.tooMany(
                  "this client enqueues faster than its rate ("
                      + client.rate()
                      + " per second, burst "
                      + client.burst()
                      + ")",
                  wait);
            });
    checkContentType(request.getContentType());
    SolveRequest solveRequest = json.read(body(request));
    if (solveRequest.priority() > client.maxPriority()) {
      throw ApiProblem.badField(
          "priority", "priority must be at most " + client.maxPriority() + " for this client");
    }
    Solves.Accepted accepted =
        solvesOf(client)
            .accept(solveRequest, client.maxUnfinished())
            .orElseThrow(
                () ->
                    ApiProblem.tooMany(
                        "this client has "
                            + client.maxUnfinished()
                            + " unfinished solves, its max-unfinished; wait for some to finish",
                        UNFINISHED_RETRY_AFTER));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", accepted.id());
    out.put("status", accepted.status());
    return ResponseEntity.status(accepted.created() ? HttpStatus.ACCEPTED : HttpStatus.OK)
        .location(URI.create("/api/solves/" + accepted.id()))
        .body(out);
  }

  @GetMapping("/{id}")
  SolveStatusView status(@PathVariable String id, @AuthenticationPrincipal ApiClient client) {
    read(client);
    return solvesOf(client).status(parse(id));
  }

  /** The token once; {@code no-store} so that no cache keeps it. */
  @PostMapping("/{id}/claim")
  ResponseEntity<ClaimedToken> claim(
      @PathVariable String id, @AuthenticationPrincipal ApiClient client) {
    read(client);
    return ResponseEntity.ok()
        .cacheControl(CacheControl.noStore())
        .body(solvesOf(client).claim(parse(id)));
  }

  /**
   * Reports what the target site made of the claimed answer: 202 with the solve (its report
   * PENDING) once recorded; a worker node sends it to the provider. 400 naming the field, 404 for
   * an unknown or another client's solve, 409 not claimed, reported before or past the window.
   */
  @PostMapping("/{id}/report")
  ResponseEntity<SolveStatusView> report(
      @PathVariable String id,
      HttpServletRequest request,
      @AuthenticationPrincipal ApiClient client)
      throws IOException {
    read(client);
    UUID solveId = parse(id);
    checkContentType(request.getContentType());
    Verdict verdict = reportJson.read(body(request));
    Solves mine = solvesOf(client);
    mine.report(solveId, verdict);
    return ResponseEntity.accepted().body(mine.status(solveId));
  }

  /** 429 when the client or the node holds as many streams as it may. */
  @GetMapping(
      path = "/{id}/events",
      produces = {MediaType.TEXT_EVENT_STREAM_VALUE, MediaType.ALL_VALUE})
  SseEmitter events(@PathVariable String id, @AuthenticationPrincipal ApiClient client) {
    read(client);
    UUID solveId = parse(id);
    Solves mine = solvesOf(client);
    mine.status(solveId); // 404 before the stream opens
    Runnable release = streamSlots.tryOpen(client);
    if (release == null) {
      throw ApiProblem.tooMany(
          "too many open event streams (this client's max-streams is " + client.maxStreams() + ")",
          Duration.ofSeconds(5));
    }
    return SolveEventStream.open(mine, solveId, properties.getEventsTimeout(), events, release);
  }

  /** Takes one read of the client's read rate, or answers 429 with Retry-After. */
  private void read(ApiClient client) {
    rateLimiter
        .tryAcquireRead(client)
        .ifPresent(
            wait -> {
              throw ApiProblem.tooMany(
                  "this client reads faster than its read rate ("
                      + client.readRate()
                      + " per second, burst "
                      + client.readBurst()
                      + ")",
                  wait);
            });
  }

  private static UUID parse(String id) {
    try {
      return UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new ApiProblem(HttpStatus.NOT_FOUND, "Not found", null, "no solve with id " + id);
    }
  }

  private static void checkContentType(String contentType) {
    if (contentType == null) {
      return;
    }
    MediaType type;
    try {
      type = MediaType.parseMediaType(contentType);
    } catch (IllegalArgumentException e) {
      type = MediaType.APPLICATION_OCTET_STREAM;
    }
    if (!type.isCompatibleWith(MediaType.APPLICATION_JSON)
        && !"json".equals(type.getSubtypeSuffix())) {
      throw new ApiProblem(
          HttpStatus.UNSUPPORTED_MEDIA_TYPE,
          "Unsupported media type",
          "Content-Type",
          "Content-Type must be application/json");
    }
  }

  /** The body, refused with 413 beyond the limit without reading more than limit + 1 bytes. */
  private byte[] body(HttpServletRequest request) throws IOException {
    long limit = properties.getMaxBodySize().toBytes();
    if (request.getContentLengthLong() > limit) {
      throw tooLarge(limit);
    }
    try (InputStream in = request.getInputStream()) {
      byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
      if (body.length > limit) {
        throw tooLarge(limit);
      }
      return body;
    }
  }

  private static ApiProblem tooLarge(long limit) {
    return new ApiProblem(
        HttpStatus.CONTENT_TOO_LARGE,
        "Request body too large",
        "body",
        "body must be at most " + limit + " bytes (captchajobs.api.max-body-size)");
  }
}

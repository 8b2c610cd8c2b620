package com.captchajobs.app.web;

import com.captchajobs.core.ClaimedToken;
import com.captchajobs.core.SolveStatusView;
import com.captchajobs.core.Solves;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** The REST API of solves; authentication is done before it by {@link BearerTokenFilter}. */
@RestController
@RequestMapping("/api/solves")
class SolvesController {

  private final Solves solves;
  private final ApiProperties properties;
  private final SolveRequestJson json = new SolveRequestJson();
  private final ExecutorService events;

  SolvesController(
      Solves solves, ApiProperties properties, ExecutorService captchaJobsSseExecutor) {
    this.solves = solves;
    this.properties = properties;
    this.events = captchaJobsSseExecutor;
  }

  /** 202 for a new solve, 200 for the existing one with the same key and payload; 409 otherwise. */
  @PostMapping
  ResponseEntity<Map<String, Object>> enqueue(HttpServletRequest request) throws IOException {
    checkContentType(request.getContentType());
    Solves.Accepted accepted = solves.accept(json.read(body(request)));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", accepted.id());
    out.put("status", accepted.status());
    return ResponseEntity.status(accepted.created() ? HttpStatus.ACCEPTED : HttpStatus.OK)
        .location(URI.create("/api/solves/" + accepted.id()))
        .body(out);
  }

  @GetMapping("/{id}")
  SolveStatusView status(@PathVariable String id) {
    return solves.status(parse(id));
  }

  /** The token once; {@code no-store} so that no cache keeps it. */
  @PostMapping("/{id}/claim")
  ResponseEntity<ClaimedToken> claim(@PathVariable String id) {
    return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(solves.claim(parse(id)));
  }

  @GetMapping(
      path = "/{id}/events",
      produces = {MediaType.TEXT_EVENT_STREAM_VALUE, MediaType.ALL_VALUE})
  SseEmitter events(@PathVariable String id) {
    UUID solveId = parse(id);
    solves.status(solveId); // 404 before the stream opens
    return SolveEventStream.open(solves, solveId, properties.getEventsTimeout(), events);
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

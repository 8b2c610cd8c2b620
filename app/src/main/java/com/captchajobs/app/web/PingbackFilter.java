package com.captchajobs.app.web;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.pingback.PingbackReceiver;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Pushes by CaptchaAI (see docs/pingback.md): {@code GET} or {@code POST /captchaai/pingback/<solve
 * id>/<submit no>/<signature>}, with the provider's {@code id} and {@code code} in the query, in a
 * form body or in a JSON body, on the API port and without a bearer token, since the provider
 * cannot send one. A push is a doorbell: the signed path alone decides whether it counts, and a
 * push that counts makes a worker fetch the task's result from res.php. So nothing else of the call
 * is read: not the query, not the body, not the pushed answer.
 *
 * <p>This filter runs ahead of every other one and answers the call itself, so the call never
 * reaches Spring Security's or Spring MVC's request logging, whatever their level. 200 when the
 * push counted, 404 for anything else, 405 for another method, 413 for a body over {@link
 * #MAX_BODY_BYTES} (refused from its declared length, before it is read), 411 for a body without a
 * declared length (chunked), 415 for multipart, 503 when the database could not be reached (the
 * fallback poll will find the answer).
 */
public final class PingbackFilter implements Filter {

  /** The largest body accepted; a push's form or JSON body is a few dozen bytes plus the answer. */
  public static final int MAX_BODY_BYTES = 4 * 1024;

  private final Optional<PingbackReceiver> pingbacks;

  public PingbackFilter(CaptchaJobs captchaJobs) {
    this.pingbacks = captchaJobs.pingbacks();
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    int status = answer(request);
    discardArrived(request, status);
    response.setStatus(status);
    if (status == HttpServletResponse.SC_METHOD_NOT_ALLOWED) {
      response.setHeader("Allow", "GET, POST");
    }
    response.setHeader("Cache-Control", "no-store");
    if (status == HttpServletResponse.SC_OK) {
      response.setContentType("text/plain");
      response.getOutputStream().write("OK".getBytes(StandardCharsets.US_ASCII));
    } else {
      response.setContentLength(0);
    }
  }

  private int answer(HttpServletRequest request) {
    String method = request.getMethod();
    if (!"GET".equals(method) && !"POST".equals(method)) {
      return HttpServletResponse.SC_METHOD_NOT_ALLOWED;
    }
    String type = request.getContentType();
    if (type != null && type.toLowerCase(Locale.ROOT).startsWith("multipart/")) {
      return HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE;
    }
    long length = request.getContentLengthLong();
    if (length > MAX_BODY_BYTES) {
      return HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE;
    }
    if (length < 0 && request.getHeader("Transfer-Encoding") != null) {
      return HttpServletResponse.SC_LENGTH_REQUIRED; // chunked: its size is unknown until read
    }
    String[] parts = segments(request);
    if (parts == null || pingbacks.isEmpty()) {
      return HttpServletResponse.SC_NOT_FOUND;
    }
    try {
      PingbackReceiver.PushResult verdict = pingbacks.get().receive(parts[0], parts[1], parts[2]);
      return verdict == PingbackReceiver.PushResult.RANG
          ? HttpServletResponse.SC_OK
          : HttpServletResponse.SC_NOT_FOUND;
    } catch (RuntimeException e) {
      return HttpServletResponse.SC_SERVICE_UNAVAILABLE;
    }
  }

  /**
   * Throws away, unlooked at, a small body that has already arrived whole (a push's form or JSON
   * body comes with its headers), so that the connection may carry the next push. A body still on
   * its way is left alone: the node closes the connection after the answer instead of waiting for
   * it (see docs/security.md, "Callers before authentication").
   */
  private static void discardArrived(HttpServletRequest request, int status) throws IOException {
    long length = request.getContentLengthLong();
    if (length <= 0
        || length > MAX_BODY_BYTES
        || status == HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE) {
      return;
    }
    ServletInputStream in = request.getInputStream();
    byte[] sink = new byte[(int) length];
    int taken = 0;
    int ready;
    while (taken < length && (ready = in.available()) > 0) {
      int n = in.read(sink, taken, Math.min(ready, (int) length - taken));
      if (n < 0) {
        return;
      }
      taken += n;
    }
  }

  /** The three path segments after the pingback path, or null when the path has another shape. */
  private static String[] segments(HttpServletRequest request) {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    String prefix = PingbackReceiver.PATH + "/";
    if (!path.startsWith(prefix)) {
      return null;
    }
    String[] parts = path.substring(prefix.length()).split("/", -1);
    return parts.length == 3 ? parts : null;
  }
}

package com.captchajobs.node.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * 401 (no or a wrong credential, with {@code WWW-Authenticate: Bearer}) and 403 (a client without
 * the role) as {@code application/problem+json} naming the {@code Authorization} field.
 */
public final class ProblemAnswers implements AuthenticationEntryPoint, AccessDeniedHandler {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Override
  public void commence(
      HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
      throws IOException {
    response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"captchajobs\"");
    String detail =
        request.getHeader(HttpHeaders.AUTHORIZATION) == null
            ? "Authorization header missing: send Authorization: Bearer <token>"
            : "Authorization bearer token not accepted";
    write(response, HttpStatus.UNAUTHORIZED, "Unauthorized", detail, request.getRequestURI());
  }

  @Override
  public void handle(
      HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
      throws IOException {
    write(
        response,
        HttpStatus.FORBIDDEN,
        "Forbidden",
        "this client's roles do not allow this call",
        request.getRequestURI());
  }

  /**
   * One RFC 9457 problem, the one error shape of every node: {@code field} names the offending
   * field when there is one. The app node's REST answers and this class's 401/403 are built here.
   */
  public static ProblemDetail problem(
      HttpStatus status, String title, String field, String detail, String instance) {
    ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
    p.setTitle(title);
    if (instance != null) {
      p.setInstance(URI.create(instance));
    }
    if (field != null) {
      p.setProperty("field", field);
    }
    return p;
  }

  /** Writes one problem naming the {@code Authorization} field, outside Spring MVC. */
  static void write(
      HttpServletResponse response, HttpStatus status, String title, String detail, String uri)
      throws IOException {
    // the request URI as sent, not parsed into a URI: this answer must not fail on any path
    ProblemDetail p = problem(status, title, "Authorization", detail, null);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", p.getType() == null ? "about:blank" : p.getType().toString());
    body.put("title", p.getTitle());
    body.put("status", p.getStatus());
    body.put("detail", p.getDetail());
    body.put("instance", uri);
    if (p.getProperties() != null) {
      body.putAll(p.getProperties());
    }
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setCharacterEncoding("UTF-8");
    response.getWriter().write(JSON.writeValueAsString(body));
  }
}

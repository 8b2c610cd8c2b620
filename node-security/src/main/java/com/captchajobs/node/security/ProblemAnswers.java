package com.captchajobs.node.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
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

  /** Writes one problem; {@code field} is {@code Authorization}. */
  static void write(
      HttpServletResponse response, HttpStatus status, String title, String detail, String uri)
      throws IOException {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "about:blank");
    body.put("title", title);
    body.put("status", status.value());
    body.put("detail", detail);
    body.put("instance", uri);
    body.put("field", "Authorization");
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setCharacterEncoding("UTF-8");
    response.getWriter().write(JSON.writeValueAsString(body));
  }
}

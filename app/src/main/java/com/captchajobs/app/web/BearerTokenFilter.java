package com.captchajobs.app.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets an {@code /api/*} request through only with a configured bearer token; otherwise 401 as
 * {@code application/problem+json}, before any body is read. Tokens come only from the header,
 * never from the URL.
 */
final class BearerTokenFilter extends OncePerRequestFilter {

  private final BearerTokens tokens;

  BearerTokenFilter(BearerTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (tokens.accepts(authorization)) {
      chain.doFilter(request, response);
      return;
    }
    response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"captchajobs\"");
    String detail =
        authorization == null
            ? "Authorization header missing: send Authorization: Bearer <token>"
            : "Authorization bearer token not accepted";
    Problems.write(
        response,
        HttpStatus.UNAUTHORIZED,
        "Unauthorized",
        "Authorization",
        detail,
        request.getRequestURI());
  }

  @Override
  protected boolean shouldNotFilterAsyncDispatch() {
    // The SSE stream's async dispatches belong to a request that was already let in.
    return true;
  }
}

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
 * Lets a request to the operator views ({@code /api/admin/*}) through only with one of {@code
 * captchajobs.api.operator-tokens}; any other accepted API token gets 403 as problem+json. Runs
 * after {@link BearerTokenFilter}, which answers 401 to unknown tokens. Small on purpose: a role
 * check of a security layer replaces it.
 */
final class OperatorGuard extends OncePerRequestFilter {

  private final BearerTokens operators;

  OperatorGuard(BearerTokens operators) {
    this.operators = operators;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (operators.accepts(request.getHeader(HttpHeaders.AUTHORIZATION))) {
      chain.doFilter(request, response);
      return;
    }
    Problems.write(
        response,
        HttpStatus.FORBIDDEN,
        "Forbidden",
        "Authorization",
        "the operator views need one of captchajobs.api.operator-tokens",
        request.getRequestURI());
  }
}

package com.captchajobs.node.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads {@code Authorization: Bearer <token>} (only from the header, never the URL) and
 * authenticates it; a header that is present but not accepted is answered 401 at once. Without the
 * header the request goes on anonymous and the chain's rules decide.
 */
final class BearerTokenFilter extends OncePerRequestFilter {

  private final AuthenticationManager authenticationManager;
  private final AuthenticationEntryPoint entryPoint;

  BearerTokenFilter(AuthenticationManager authenticationManager, AuthenticationEntryPoint entry) {
    this.authenticationManager = authenticationManager;
    this.entryPoint = entry;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (authorization == null) {
      chain.doFilter(request, response);
      return;
    }
    try {
      if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw new BadCredentialsException("Authorization must be Bearer <token>");
      }
      String token = authorization.substring(7).strip();
      SecurityContext context = SecurityContextHolder.createEmptyContext();
      context.setAuthentication(
          authenticationManager.authenticate(BearerTokenAuthentication.presented(token)));
      SecurityContextHolder.setContext(context);
    } catch (AuthenticationException e) {
      SecurityContextHolder.clearContext();
      entryPoint.commence(request, response, e);
      return;
    }
    chain.doFilter(request, response);
  }
}

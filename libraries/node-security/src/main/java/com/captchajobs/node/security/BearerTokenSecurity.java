package com.captchajobs.node.security;

import jakarta.servlet.DispatcherType;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;

/**
 * What every filter chain of a node shares: bearer tokens of the configured clients, no session, no
 * cookie, no CSRF token (no browser credential exists), no login page, problem+json for 401 and
 * 403, and async and error dispatches of an admitted request let through.
 */
public final class BearerTokenSecurity {

  private final ProviderManager authenticationManager;
  private final ProblemAnswers answers = new ProblemAnswers();

  public BearerTokenSecurity(ApiClients clients) {
    this.authenticationManager =
        new ProviderManager(new BearerTokenAuthenticationProvider(clients));
  }

  /** Applies the shared parts; the caller adds its matcher and its rules. */
  public HttpSecurity apply(HttpSecurity http) {
    http.csrf(AbstractHttpConfigurer::disable)
        .httpBasic(AbstractHttpConfigurer::disable)
        .formLogin(AbstractHttpConfigurer::disable)
        .logout(AbstractHttpConfigurer::disable)
        .requestCache(AbstractHttpConfigurer::disable)
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .exceptionHandling(e -> e.authenticationEntryPoint(answers).accessDeniedHandler(answers))
        .addFilterBefore(
            new BearerTokenFilter(authenticationManager, answers), BasicAuthenticationFilter.class);
    return http;
  }

  /** Async (server-sent events) and error dispatches belong to a request already admitted. */
  public static void admitDispatches(
      AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry a) {
    a.dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll();
  }
}

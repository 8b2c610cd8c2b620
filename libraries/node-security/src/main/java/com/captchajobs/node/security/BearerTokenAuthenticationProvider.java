package com.captchajobs.node.security;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;

/** Accepts a bearer token that one of the configured {@link ApiClients} holds. */
public final class BearerTokenAuthenticationProvider implements AuthenticationProvider {

  private final ApiClients clients;

  public BearerTokenAuthenticationProvider(ApiClients clients) {
    this.clients = clients;
  }

  @Override
  public Authentication authenticate(Authentication authentication) {
    String token = ((BearerTokenAuthentication) authentication).token();
    return clients
        .authenticate(token)
        .map(BearerTokenAuthentication::accepted)
        .orElseThrow(() -> new BadCredentialsException("Authorization bearer token not accepted"));
  }

  @Override
  public boolean supports(Class<?> authentication) {
    return BearerTokenAuthentication.class.isAssignableFrom(authentication);
  }
}

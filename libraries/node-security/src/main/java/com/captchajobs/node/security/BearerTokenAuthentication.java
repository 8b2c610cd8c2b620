package com.captchajobs.node.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * A bearer token as presented (not authenticated, holding the token) or as accepted (holding the
 * {@link ApiClient} and its roles, the token dropped).
 */
public final class BearerTokenAuthentication extends AbstractAuthenticationToken {

  private final transient String token;
  private final ApiClient client;

  private BearerTokenAuthentication(String token) {
    super(List.of());
    this.token = token;
    this.client = null;
    setAuthenticated(false);
  }

  private BearerTokenAuthentication(ApiClient client) {
    super(client.roles().stream().map(r -> new SimpleGrantedAuthority(r.authority())).toList());
    this.token = null;
    this.client = client;
    super.setAuthenticated(true);
  }

  static BearerTokenAuthentication presented(String token) {
    return new BearerTokenAuthentication(token);
  }

  static BearerTokenAuthentication accepted(ApiClient client) {
    return new BearerTokenAuthentication(client);
  }

  String token() {
    return token;
  }

  /** The authenticated client; null before authentication. */
  public ApiClient client() {
    return client;
  }

  @Override
  public Object getCredentials() {
    return null;
  }

  @Override
  public Object getPrincipal() {
    return client;
  }

  @Override
  public String getName() {
    return client == null ? "(unauthenticated)" : client.name();
  }
}

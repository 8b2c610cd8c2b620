package com.captchajobs.node.security;

import com.captchajobs.spring.boot.WebhookProperties;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The closed management surface of every node. Actuator runs on {@code management.server.port}
 * (each node's defaults set one); there, health with its liveness and readiness groups is open
 * (details only to an operator: {@code management.endpoint.health.show-details=when-authorized}),
 * and every other endpoint (metrics, Prometheus, info, the breaker and its DELETE) needs a client
 * with the {@code operator} role. Anything a node does not open itself is refused: 401 without a
 * credential, 403 with one.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(ApiClientsProperties.class)
public class NodeSecurityConfiguration {

  /** Order of the management chain; a node's own chains come after it. */
  public static final int MANAGEMENT_ORDER = 1;

  /** The key of the deadline for a request's headers, from its first byte (default 10 s). */
  public static final String HEADER_DEADLINE = "captchajobs.web.header-deadline";

  /** The key of the deadline for a request's body, from when the node starts serving it. */
  public static final String BODY_DEADLINE = "captchajobs.web.body-deadline";

  /** The header deadline on every Tomcat connector of the node. */
  @Bean
  RequestDeadlines captchaJobsRequestDeadlines(Environment environment) {
    return new RequestDeadlines(deadline(environment, HEADER_DEADLINE));
  }

  /** The body deadline, ahead of every other filter. */
  @Bean
  FilterRegistrationBean<BodyDeadlineFilter> captchaJobsBodyDeadline(Environment environment) {
    FilterRegistrationBean<BodyDeadlineFilter> registration =
        new FilterRegistrationBean<>(new BodyDeadlineFilter(deadline(environment, BODY_DEADLINE)));
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    registration.setName("captchaJobsBodyDeadline");
    return registration;
  }

  /** A body nobody read is not drained on a worker thread: the connection is closed instead. */
  @Bean
  WebServerFactoryCustomizer<TomcatWebServerFactory> captchaJobsUnreadBodyValve() {
    return factory -> factory.addEngineValves(new UnreadBodyValve()); // one valve per server
  }

  private static Duration deadline(Environment environment, String key) {
    Duration value =
        Binder.get(environment).bind(key, Duration.class).orElse(NodeDefaults.REQUEST_DEADLINE);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalStateException(key + " must be a positive duration, was " + value);
    }
    return value;
  }

  @Bean
  public ApiClients captchaJobsApiClients(
      ApiClientsProperties properties, Environment environment) {
    // a client's webhook-secret is bound once, where it is used (the starter's WebhookProperties)
    return properties.toClients(WebhookProperties.clientSecrets(environment).keySet());
  }

  @Bean
  public BearerTokenAuthenticationProvider captchaJobsBearerTokenAuthenticationProvider(
      ApiClients clients) {
    return new BearerTokenAuthenticationProvider(clients);
  }

  @Bean
  public BearerTokenSecurity captchaJobsBearerTokenSecurity(ApiClients clients) {
    return new BearerTokenSecurity(clients);
  }

  @Bean
  @Order(MANAGEMENT_ORDER)
  public SecurityFilterChain captchaJobsManagementSecurity(
      HttpSecurity http, BearerTokenSecurity security) throws Exception {
    security
        .apply(http)
        .securityMatcher(EndpointRequest.toAnyEndpoint())
        .authorizeHttpRequests(
            a -> {
              BearerTokenSecurity.admitDispatches(a);
              a.requestMatchers(EndpointRequest.to("health"))
                  .permitAll()
                  .anyRequest()
                  .hasRole(ApiRole.OPERATOR.name());
            });
    return http.build();
  }

  /** Everything no other chain opened. */
  @Bean
  @Order(Ordered.LOWEST_PRECEDENCE)
  public SecurityFilterChain captchaJobsClosedByDefault(
      HttpSecurity http, BearerTokenSecurity security) throws Exception {
    security
        .apply(http)
        .authorizeHttpRequests(
            a -> {
              BearerTokenSecurity.admitDispatches(a);
              a.anyRequest().denyAll();
            });
    return http.build();
  }
}

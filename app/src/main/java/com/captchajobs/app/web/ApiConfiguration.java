package com.captchajobs.app.web;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Solves;
import com.captchajobs.core.pingback.PingbackReceiver;
import com.captchajobs.node.security.ApiClients;
import com.captchajobs.node.security.ApiRole;
import com.captchajobs.node.security.BearerTokenSecurity;
import com.captchajobs.node.security.NodeSecurityConfiguration;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The REST API of the app node. Imported by {@code AppApplication} only: an existing app that uses
 * the library gets the {@link Solves} bean, not these endpoints. {@code /api/**} needs a client
 * with the {@code client} role (Spring Security, bearer tokens of {@code captchajobs.api.clients}
 * or {@code captchajobs.api.tokens}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ApiProperties.class)
@Import({
  NodeSecurityConfiguration.class,
  SolvesController.class,
  OperatorController.class,
  ApiExceptionHandler.class
})
public class ApiConfiguration {

  @Bean
  @Order(NodeSecurityConfiguration.MANAGEMENT_ORDER + 1)
  public SecurityFilterChain captchaJobsApiSecurity(
      HttpSecurity http, BearerTokenSecurity security, ApiClients clients, ApiProperties api)
      throws Exception {
    api.validate();
    if (!clients.any(ApiRole.CLIENT)) {
      throw new IllegalStateException(
          "captchajobs.api.tokens must list at least one bearer token (comma-separated, at least"
              + " 16 characters each), or captchajobs.api.clients.<name>.token name a client with"
              + " the client role");
    }
    security
        .apply(http)
        .securityMatcher("/api/**", "/v3/api-docs/**")
        .authorizeHttpRequests(
            a -> {
              BearerTokenSecurity.admitDispatches(a);
              // the API's description is public; the operator views need the operator role
              a.requestMatchers("/v3/api-docs/**").permitAll();
              a.requestMatchers("/api/admin/**").hasRole(ApiRole.OPERATOR.name());
              a.anyRequest().hasRole(ApiRole.CLIENT.name());
            });
    return http.build();
  }

  /**
   * Pushes: open without a bearer token, since the provider cannot send one; each URL carries its
   * own signature. {@link PingbackFilter} answers them before this chain runs; the chain stays so
   * that nothing under the path ever meets a session, a CSRF check or the bearer filter.
   */
  @Bean
  @Order(NodeSecurityConfiguration.MANAGEMENT_ORDER + 2)
  public SecurityFilterChain captchaJobsPingbackSecurity(HttpSecurity http) throws Exception {
    http.securityMatcher(PingbackReceiver.PATH + "/**")
        .csrf(AbstractHttpConfigurer::disable)
        .httpBasic(AbstractHttpConfigurer::disable)
        .formLogin(AbstractHttpConfigurer::disable)
        .logout(AbstractHttpConfigurer::disable)
        .requestCache(AbstractHttpConfigurer::disable)
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .authorizeHttpRequests(a -> a.anyRequest().permitAll());
    return http.build();
  }

  /**
   * Pushes ({@link PingbackFilter}): answered ahead of every other filter, Spring Security's
   * included, so no request logging at any level sees them; Tomcat's raw DEBUG lines are kept out
   * by {@link PingbackLogGuard}.
   */
  @Bean
  public FilterRegistrationBean<PingbackFilter> captchaJobsPingbackFilter(CaptchaJobs captchaJobs) {
    PingbackLogGuard.install();
    FilterRegistrationBean<PingbackFilter> registration =
        new FilterRegistrationBean<>(new PingbackFilter(captchaJobs));
    registration.addUrlPatterns(PingbackReceiver.PATH + "/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    registration.setName("captchaJobsPingbackFilter");
    return registration;
  }

  /** The frame of the OpenAPI description at {@code /v3/api-docs}. */
  @Bean
  public io.swagger.v3.oas.models.OpenAPI captchaJobsOpenApi() {
    return ApiDescription.base();
  }

  /** Request bodies, examples and every answer of the OpenAPI description. */
  @Bean
  public org.springdoc.core.customizers.OpenApiCustomizer captchaJobsOpenApiCustomizer() {
    return ApiDescription.customizer();
  }

  @Bean
  public EnqueueRateLimiter captchaJobsEnqueueRateLimiter() {
    return new EnqueueRateLimiter(Clock.systemUTC());
  }

  @Bean
  public StreamSlots captchaJobsStreamSlots(ApiProperties properties) {
    return new StreamSlots(properties.getMaxStreams());
  }

  /**
   * Sends server-sent events off the notification thread: a bounded pool with a bounded queue (a
   * stream whose update cannot be queued is ended, and the client reconnects).
   */
  @Bean(destroyMethod = "shutdownNow")
  public ThreadPoolExecutor captchaJobsSseExecutor(ApiProperties properties) {
    AtomicInteger n = new AtomicInteger();
    int threads = properties.getEventsThreads();
    return new ThreadPoolExecutor(
        threads,
        threads,
        60,
        TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(10_000),
        r -> {
          Thread t = new Thread(r, "captchajobs-sse-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        },
        new ThreadPoolExecutor.AbortPolicy());
  }
}

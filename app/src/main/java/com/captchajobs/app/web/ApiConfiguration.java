package com.captchajobs.app.web;

import com.captchajobs.core.Solves;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The REST API of the app node. Imported by {@code AppApplication} only: an existing app that uses
 * the library gets the {@link Solves} bean, not these endpoints.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ApiProperties.class)
@Import({SolvesController.class, OperatorController.class, ApiExceptionHandler.class})
public class ApiConfiguration {

  @Bean
  public FilterRegistrationBean<BearerTokenFilter> captchaJobsBearerTokenFilter(
      ApiProperties properties) {
    properties.validate();
    java.util.List<String> all = new java.util.ArrayList<>(properties.activeTokens());
    all.addAll(properties.activeOperatorTokens());
    FilterRegistrationBean<BearerTokenFilter> registration =
        new FilterRegistrationBean<>(new BearerTokenFilter(new BearerTokens(all)));
    registration.addUrlPatterns("/api/*");
    registration.setName("captchaJobsBearerTokenFilter");
    registration.setOrder(org.springframework.core.Ordered.HIGHEST_PRECEDENCE + 100);
    return registration;
  }

  /**
   * The operator views' guard, after the bearer filter: only {@code
   * captchajobs.api.operator-tokens} reach {@code /api/admin/*}. A stand-in until the node has an
   * operator role of its own.
   */
  @Bean
  public FilterRegistrationBean<OperatorGuard> captchaJobsOperatorGuard(ApiProperties properties) {
    FilterRegistrationBean<OperatorGuard> registration =
        new FilterRegistrationBean<>(
            new OperatorGuard(new BearerTokens(properties.activeOperatorTokens())));
    registration.addUrlPatterns("/api/admin/*");
    registration.setName("captchaJobsOperatorGuard");
    registration.setOrder(org.springframework.core.Ordered.HIGHEST_PRECEDENCE + 101);
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

  /** Sends server-sent events off the notification thread. */
  @Bean(destroyMethod = "shutdownNow")
  public ExecutorService captchaJobsSseExecutor() {
    AtomicInteger n = new AtomicInteger();
    return Executors.newCachedThreadPool(
        r -> {
          Thread t = new Thread(r, "captchajobs-sse-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }
}

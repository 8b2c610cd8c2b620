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
@Import({SolvesController.class, ApiExceptionHandler.class})
public class ApiConfiguration {

  @Bean
  public FilterRegistrationBean<BearerTokenFilter> captchaJobsBearerTokenFilter(
      ApiProperties properties) {
    properties.validate();
    FilterRegistrationBean<BearerTokenFilter> registration =
        new FilterRegistrationBean<>(
            new BearerTokenFilter(new BearerTokens(properties.activeTokens())));
    registration.addUrlPatterns("/api/*");
    registration.setName("captchaJobsBearerTokenFilter");
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

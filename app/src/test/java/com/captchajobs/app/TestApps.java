package com.captchajobs.app;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts app nodes inside the test JVM. */
final class TestApps {

  static final String API_TOKEN = "test-token-0123456789abcdef";
  static final String WEBHOOK_SECRET = "webhook-secret-0123456789";
  static final String OPERATOR_TOKEN = "test-operator-token-0123456789";

  private TestApps() {}

  /** An app node (REST API) with an in-process worker against the given database and simulator. */
  static ConfigurableApplicationContext appWithWorker(
      String jdbcUrl, String baseUrl, String apiKey, Map<String, String> extra) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("spring.datasource.url", jdbcUrl);
    props.put("captchaai.api-key", apiKey);
    props.put("captchaai.base-url", baseUrl);
    props.put("server.port", "0");
    props.put("server.address", "127.0.0.1");
    props.put("management.server.port", "0");
    props.put("management.server.address", "127.0.0.1");
    props.put("captchajobs.worker.enabled", "true");
    props.put("captchajobs.api.tokens", API_TOKEN);
    props.put("captchajobs.api.clients.ops.token", OPERATOR_TOKEN);
    props.put("captchajobs.api.clients.ops.roles", "operator");
    props.put("captchajobs.webhook.secret", WEBHOOK_SECRET);
    props.put("captchaai.first-poll-wait.TURNSTILE", "1s");
    props.put("captchaai.first-poll-wait.RECAPTCHA_V2", "1s");
    props.put("spring.datasource.hikari.maximum-pool-size", "20");
    // connections open as the node needs them, not twenty at its start (each is a PostgreSQL
    // process)
    props.put("spring.datasource.hikari.minimum-idle", "2");
    props.putAll(extra);
    return AppApplication.builder().properties(props).run();
  }

  static int port(ConfigurableApplicationContext context) {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  static int managementPort(ConfigurableApplicationContext context) {
    return Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
  }
}

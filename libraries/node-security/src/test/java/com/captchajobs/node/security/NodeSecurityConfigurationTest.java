package com.captchajobs.node.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The node's security on real ports: a small Spring Boot node (Tomcat on a random API port and a
 * random management port) that imports {@link NodeSecurityConfiguration} as the nodes do and opens
 * {@code /api/**} to the client role as the app node does. Requests go over sockets with the JDK
 * HTTP client, the bearer token only in the {@code Authorization} header.
 */
class NodeSecurityConfigurationTest {

  static final String CLIENT_TOKEN = "client-token-0123456789";
  static final String OPERATOR_TOKEN = "operator-token-0123456789";

  static ConfigurableApplicationContext node;
  static int apiPort;
  static int managementPort;
  static final HttpClient http = HttpClient.newHttpClient();

  /** A node with one API path of its own, behind the client role. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import({NodeSecurityConfiguration.class, TestNode.Hello.class})
  static class TestNode {

    @RestController
    static class Hello {
      @GetMapping("/api/hello")
      String hello() {
        return "hello";
      }

      @GetMapping("/elsewhere")
      String elsewhere() {
        return "not opened by any chain";
      }
    }

    @Bean
    @Order(NodeSecurityConfiguration.MANAGEMENT_ORDER + 1)
    SecurityFilterChain api(HttpSecurity http, BearerTokenSecurity security) throws Exception {
      security
          .apply(http)
          .securityMatcher("/api/**")
          .authorizeHttpRequests(
              a -> {
                BearerTokenSecurity.admitDispatches(a);
                a.anyRequest().hasRole(ApiRole.CLIENT.name());
              });
      return http.build();
    }
  }

  @BeforeAll
  static void start() {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("server.port", "0");
    props.put("server.address", "127.0.0.1");
    props.put("management.server.port", "0");
    props.put("management.server.address", "127.0.0.1");
    props.put("management.endpoints.web.exposure.include", "health,metrics");
    props.put("captchajobs.enabled", "false");
    props.put("captchajobs.api.tokens", CLIENT_TOKEN);
    props.put("captchajobs.api.clients.ops.token", OPERATOR_TOKEN);
    props.put("captchajobs.api.clients.ops.roles", "operator");
    node = new SpringApplicationBuilder(TestNode.class).properties(props).run();
    apiPort = Integer.parseInt(node.getEnvironment().getProperty("local.server.port"));
    managementPort = Integer.parseInt(node.getEnvironment().getProperty("local.management.port"));
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  static HttpResponse<String> get(int port, String path, String authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void healthIsOpenWithoutAToken() throws Exception {
    HttpResponse<String> health = get(managementPort, "/actuator/health", null);

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).contains("\"status\":\"UP\"");
  }

  @Test
  void aManagementEndpointWithoutATokenIsAnswered401AsAProblemNamingTheAuthorizationField()
      throws Exception {
    HttpResponse<String> metrics = get(managementPort, "/actuator/metrics", null);

    assertThat(metrics.statusCode()).isEqualTo(401);
    assertThat(metrics.headers().firstValue("WWW-Authenticate"))
        .hasValue("Bearer realm=\"captchajobs\"");
    assertThat(metrics.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    assertThat(metrics.body())
        .contains("\"status\":401", "\"field\":\"Authorization\"", "Authorization header missing");
  }

  @Test
  void aManagementEndpointNeedsTheOperatorRole() throws Exception {
    HttpResponse<String> asClient =
        get(managementPort, "/actuator/metrics", "Bearer " + CLIENT_TOKEN);
    HttpResponse<String> asOperator =
        get(managementPort, "/actuator/metrics", "Bearer " + OPERATOR_TOKEN);

    assertThat(asClient.statusCode()).isEqualTo(403);
    assertThat(asClient.body()).contains("\"status\":403", "roles do not allow this call");
    assertThat(asOperator.statusCode()).isEqualTo(200);
    assertThat(asOperator.body()).contains("\"names\"");
  }

  @Test
  void theBearerSchemeIsReadCaseInsensitivelyAndTheTokenTrimmed() throws Exception {
    HttpResponse<String> lower =
        get(managementPort, "/actuator/metrics", "bearer   " + OPERATOR_TOKEN + " ");

    assertThat(lower.statusCode()).isEqualTo(200);
  }

  @Test
  void aTokenNotAcceptedOrAnotherSchemeIsAnswered401AtOnceAndTheTokenIsNotEchoed()
      throws Exception {
    HttpResponse<String> wrong = get(apiPort, "/api/hello", "Bearer " + CLIENT_TOKEN + "x");
    HttpResponse<String> basic = get(apiPort, "/api/hello", "Basic " + CLIENT_TOKEN);

    for (HttpResponse<String> answer : java.util.List.of(wrong, basic)) {
      assertThat(answer.statusCode()).isEqualTo(401);
      assertThat(answer.body())
          .contains("Authorization bearer token not accepted")
          .doesNotContain(CLIENT_TOKEN);
    }
  }

  @Test
  void aTokenInTheUrlIsNotReadOnlyTheHeaderCounts() throws Exception {
    HttpResponse<String> inUrl = get(apiPort, "/api/hello?access_token=" + CLIENT_TOKEN, null);

    assertThat(inUrl.statusCode()).isEqualTo(401);
  }

  @Test
  void theNodesOwnChainAdmitsTheClientRoleAndRefusesAnOperatorOnlyClient() throws Exception {
    HttpResponse<String> asClient = get(apiPort, "/api/hello", "Bearer " + CLIENT_TOKEN);
    HttpResponse<String> asOperator = get(apiPort, "/api/hello", "Bearer " + OPERATOR_TOKEN);

    assertThat(asClient.statusCode()).isEqualTo(200);
    assertThat(asClient.body()).isEqualTo("hello");
    assertThat(asOperator.statusCode()).isEqualTo(403);
  }

  @Test
  void aPathNoChainOpenedIsClosedEvenToAValidToken() throws Exception {
    assertThat(get(apiPort, "/elsewhere", null).statusCode()).isEqualTo(401);
    assertThat(get(apiPort, "/elsewhere", "Bearer " + CLIENT_TOKEN).statusCode()).isEqualTo(403);
    assertThat(get(apiPort, "/elsewhere", "Bearer " + OPERATOR_TOKEN).statusCode()).isEqualTo(403);
  }

  @Test
  void noSessionCookieIsEverSet() throws Exception {
    HttpResponse<String> answer = get(apiPort, "/api/hello", "Bearer " + CLIENT_TOKEN);

    assertThat(answer.headers().allValues("Set-Cookie")).isEmpty();
  }
}

package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OpenAPI description an app node serves at {@code /v3/api-docs} matches its controllers and
 * the committed {@code docs/openapi.json}. When the committed file differs, the test writes the
 * served one over it and fails: review the diff and commit it.
 */
class OpenApiDescriptionTest {

  static final Path COMMITTED = Path.of("..", "docs", "openapi.json");
  static final JsonMapper PRETTY =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  /** The documented answers of each operation of the REST API, by "METHOD path". */
  static final Map<String, Set<String>> CODES =
      Map.of(
          "POST /api/solves", Set.of("200", "202", "400", "401", "409", "413", "415"),
          "GET /api/solves/{id}", Set.of("200", "401", "404"),
          "POST /api/solves/{id}/claim", Set.of("200", "401", "404", "409", "410"),
          "GET /api/solves/{id}/events", Set.of("200", "401", "404"),
          "GET /api/admin/solves", Set.of("200", "400", "401", "403"),
          "GET /api/admin/batches/{batch}", Set.of("200", "401", "403", "404"),
          "GET /api/admin/gate", Set.of("200", "401", "403"),
          "GET /api/admin/breakers", Set.of("200", "401", "403"),
          "DELETE /api/admin/breakers/{keyFingerprint}", Set.of("200", "401", "403", "404"),
          "POST /api/admin/solves/{id}/requeue", Set.of("202", "401", "403", "404", "409"));

  static ConfigurableApplicationContext app;
  static JsonNode served;
  static String servedText;

  @BeforeAll
  static void start() {
    app =
        AppApplication.builder()
            .properties(
                Map.of(
                    "spring.datasource.url",
                    EmbeddedPostgresSupport.newDatabase(),
                    "server.port",
                    "0",
                    "server.address",
                    "127.0.0.1",
                    "captchajobs.api.tokens",
                    TestApps.API_TOKEN))
            .run();
    Api api = new Api(TestApps.port(app), null);
    HttpResponse<String> r = api.send(api.request("/v3/api-docs", null).GET().build());
    assertThat(r.statusCode()).isEqualTo(200);
    served = Api.JSON.readTree(r.body());
    servedText = PRETTY.writeValueAsString(served) + "\n";
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void everyMappingOfTheRestControllersIsDescribedWithItsDocumentedAnswers() {
    RequestMappingHandlerMapping mapping =
        app.getBean("requestMappingHandlerMapping", RequestMappingHandlerMapping.class);
    Set<String> mapped = new TreeSet<>();
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mapping.getHandlerMethods().entrySet()) {
      if (!e.getValue().getBeanType().getPackageName().startsWith("com.captchajobs.app.web")
          // the provider's pingback callback is not part of the API clients use
          || e.getValue().getBeanType().isAnnotationPresent(Hidden.class)) {
        continue;
      }
      for (String path : e.getKey().getPatternValues()) {
        e.getKey().getMethodsCondition().getMethods().forEach(m -> mapped.add(m + " " + path));
      }
    }
    assertThat(mapped).containsExactlyInAnyOrderElementsOf(CODES.keySet());

    Set<String> described = new TreeSet<>();
    served
        .get("paths")
        .properties()
        .forEach(
            p ->
                p.getValue()
                    .properties()
                    .forEach(m -> described.add(m.getKey().toUpperCase() + " " + p.getKey())));
    assertThat(described).containsExactlyInAnyOrderElementsOf(mapped);

    for (String op : mapped) {
      String[] parts = op.split(" ", 2);
      JsonNode operation = served.get("paths").get(parts[1]).get(parts[0].toLowerCase());
      Set<String> codes = new TreeSet<>();
      operation.get("responses").propertyNames().forEach(codes::add);
      assertThat(codes).as(op).containsExactlyInAnyOrderElementsOf(CODES.get(op));
      assertThat(operation.get("operationId")).as(op).isNotNull();
      operation
          .get("responses")
          .properties()
          .forEach(
              r -> {
                if (r.getKey().startsWith("4")) {
                  JsonNode media = r.getValue().get("content").get("application/problem+json");
                  assertThat(media).as(op + " " + r.getKey() + " is problem+json").isNotNull();
                  assertThat(media.get("schema").get("$ref").stringValue())
                      .isEqualTo("#/components/schemas/Problem");
                }
              });
    }
  }

  @Test
  void theEnqueueBodyHasOneExampleForEveryCaptchaType() {
    JsonNode examples =
        served.at("/paths/~1api~1solves/post/requestBody/content/application~1json/examples");
    Set<String> names = new TreeSet<>();
    examples.propertyNames().forEach(names::add);
    assertThat(names)
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(CaptchaType.values()).map(Enum::name).toList());
    examples
        .properties()
        .forEach(
            e ->
                assertThat(e.getValue().get("value").get("type").stringValue())
                    .isEqualTo(e.getKey()));
  }

  @Test
  void theCommittedDescriptionEqualsTheServedOne() throws IOException {
    String committed =
        Files.exists(COMMITTED) ? Files.readString(COMMITTED, StandardCharsets.UTF_8) : "";
    boolean same = !committed.isBlank() && Api.JSON.readTree(committed).equals(served);
    if (!same) {
      Files.writeString(COMMITTED, servedText, StandardCharsets.UTF_8);
    }
    assertThat(same)
        .as("docs/openapi.json differed from the served description and was rewritten: commit it")
        .isTrue();
  }
}

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
      Map.ofEntries(
          Map.entry(
              "POST /api/solves",
              Set.of("200", "202", "400", "401", "403", "409", "413", "415", "429")),
          Map.entry("GET /api/solves/{id}", Set.of("200", "401", "403", "404", "429")),
          Map.entry(
              "POST /api/solves/{id}/claim",
              Set.of("200", "401", "403", "404", "409", "410", "429")),
          Map.entry(
              "POST /api/solves/{id}/report",
              Set.of("202", "400", "401", "403", "404", "409", "413", "415", "429")),
          Map.entry("GET /api/solves/{id}/events", Set.of("200", "401", "403", "404", "429")),
          Map.entry("GET /api/admin/solves", Set.of("200", "400", "401", "403")),
          Map.entry("GET /api/admin/batches/{batch}", Set.of("200", "400", "401", "403", "404")),
          Map.entry("GET /api/admin/gate", Set.of("200", "401", "403")),
          Map.entry("GET /api/admin/breakers", Set.of("200", "401", "403")),
          Map.entry(
              "DELETE /api/admin/breakers/{keyFingerprint}", Set.of("200", "401", "403", "404")),
          Map.entry(
              "POST /api/admin/solves/{id}/requeue", Set.of("202", "401", "403", "404", "409")));

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

  /**
   * The description is clean under the rules of Spectral's standard {@code spectral:oas} ruleset
   * that apply to it (checked here in Java, so that the build needs no Node), and every operation
   * has a summary.
   */
  @Test
  void theDescriptionPassesTheStandardOasLintRules() {
    List<String> problems = new ArrayList<>();
    JsonNode info = served.get("info");
    rule(problems, info.hasNonNull("contact"), "info-contact");
    rule(problems, !info.path("description").asString("").isBlank(), "info-description");
    rule(problems, served.path("servers").size() > 0, "oas3-api-servers");
    Set<String> globalTags = new TreeSet<>();
    for (JsonNode tag : served.path("tags")) {
      globalTags.add(tag.get("name").stringValue());
      rule(
          problems,
          !tag.path("description").asString("").isBlank(),
          "tag-description " + tag.get("name"));
    }
    Set<String> operationIds = new TreeSet<>();
    Set<String> usedTags = new TreeSet<>();
    served
        .get("paths")
        .properties()
        .forEach(
            p -> {
              String path = p.getKey();
              rule(
                  problems,
                  path.equals("/") || !path.endsWith("/"),
                  "path-keys-no-trailing-slash " + path);
              rule(problems, !path.contains("?"), "path-not-include-query " + path);
              p.getValue()
                  .properties()
                  .forEach(
                      m -> {
                        String op = m.getKey().toUpperCase() + " " + path;
                        JsonNode o = m.getValue();
                        String id = o.path("operationId").asString("");
                        rule(problems, !id.isBlank(), "operation-operationId " + op);
                        rule(problems, operationIds.add(id), "operation-operationId-unique " + op);
                        rule(
                            problems,
                            id.matches("[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=]+"),
                            "operation-operationId-valid-in-url " + op);
                        rule(
                            problems,
                            !o.path("summary").asString("").isBlank(),
                            "operation-summary " + op);
                        rule(
                            problems,
                            !o.path("description").asString("").isBlank(),
                            "operation-description " + op);
                        rule(problems, o.path("tags").size() > 0, "operation-tags " + op);
                        rule(problems, o.path("tags").size() <= 1, "operation-singular-tag " + op);
                        for (JsonNode tag : o.path("tags")) {
                          usedTags.add(tag.stringValue());
                          rule(
                              problems,
                              globalTags.contains(tag.stringValue()),
                              "operation-tag-defined " + op + " " + tag);
                        }
                        boolean success = false;
                        for (var r : o.get("responses").properties()) {
                          success |= r.getKey().startsWith("2") || r.getKey().startsWith("3");
                          rule(
                              problems,
                              !r.getValue().path("description").asString("").isBlank(),
                              "response description " + op + " " + r.getKey());
                        }
                        rule(problems, success, "operation-success-response " + op);
                        for (String name : pathParams(path)) {
                          boolean declared = false;
                          for (JsonNode param : o.path("parameters")) {
                            declared |=
                                name.equals(param.path("name").asString(""))
                                    && "path".equals(param.path("in").asString(""))
                                    && param.path("required").asBoolean(false);
                          }
                          rule(problems, declared, "path-params " + op + " {" + name + "}");
                        }
                      });
            });
    rule(problems, usedTags.containsAll(globalTags), "openapi-tags: every global tag is used");
    String text = served.toString();
    served
        .path("components")
        .path("schemas")
        .propertyNames()
        .forEach(
            name ->
                rule(
                    problems,
                    text.contains("\"#/components/schemas/" + name + "\""),
                    "oas3-unused-component " + name));
    served
        .path("components")
        .path("securitySchemes")
        .propertyNames()
        .forEach(
            name ->
                rule(
                    problems,
                    served.path("security").toString().contains("\"" + name + "\""),
                    "oas3-unused-component " + name));
    enums(served, problems, "");
    assertThat(problems).isEmpty();
  }

  private static void rule(List<String> problems, boolean ok, String rule) {
    if (!ok) {
      problems.add(rule);
    }
  }

  private static List<String> pathParams(String path) {
    List<String> out = new ArrayList<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{([^}]+)}").matcher(path);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** duplicated-entry-in-enum and typed-enum, everywhere in the document. */
  private static void enums(JsonNode node, List<String> problems, String at) {
    if (node.isObject()) {
      JsonNode values = node.get("enum");
      if (values != null && values.isArray()) {
        Set<String> seen = new java.util.HashSet<>();
        Set<String> types = new TreeSet<>();
        JsonNode type = node.get("type");
        if (type != null && type.isArray()) {
          type.forEach(t -> types.add(t.stringValue()));
        } else if (type != null) {
          types.add(type.stringValue());
        }
        for (JsonNode v : values) {
          rule(problems, seen.add(v.toString()), "duplicated-entry-in-enum " + at);
          String kind =
              v.isNull() ? "null" : v.isString() ? "string" : v.isNumber() ? "number" : "other";
          rule(problems, types.isEmpty() || types.contains(kind), "typed-enum " + at + " " + v);
        }
      }
      node.properties().forEach(e -> enums(e.getValue(), problems, at + "/" + e.getKey()));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        enums(node.get(i), problems, at + "/" + i);
      }
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

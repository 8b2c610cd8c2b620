package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.OpenApi31;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks real responses of the running app against its OpenAPI 3.1 description: the operation
 * (method and path template) exists, the status is documented, the content type is a documented
 * one, the JSON body is valid against the documented schema (JSON Schema 2020-12 with the OpenAPI
 * 3.1 dialect of networknt's validator), and the documented headers are there and of their format
 * ({@code uri-reference}, {@code uri}, integers with a minimum). Remembers every operation and
 * status it checked.
 */
final class WireValidator {

  private final JsonNode description;
  private final SchemaRegistry registry =
      SchemaRegistry.withDefaultDialect(OpenApi31.getInstance());
  private final Set<String> checked = new TreeSet<>();

  WireValidator(JsonNode description) {
    this.description = description;
  }

  /** Every "METHOD path status" the description documents. */
  Set<String> documented() {
    Set<String> out = new TreeSet<>();
    description
        .get("paths")
        .properties()
        .forEach(
            p ->
                p.getValue()
                    .properties()
                    .forEach(
                        m ->
                            m.getValue()
                                .get("responses")
                                .propertyNames()
                                .forEach(
                                    code ->
                                        out.add(
                                            m.getKey().toUpperCase()
                                                + " "
                                                + p.getKey()
                                                + " "
                                                + code))));
    return out;
  }

  /** Every "METHOD path status" checked so far. */
  Set<String> checked() {
    return checked;
  }

  /** Asserts that the response matches the description; returns it. */
  <T> HttpResponse<T> check(HttpResponse<T> response, String body) {
    String method = response.request().method();
    String path = response.request().uri().getPath();
    String template = template(path);
    assertThat(template).as("%s %s is described", method, path).isNotNull();
    JsonNode operation = description.get("paths").get(template).get(method.toLowerCase());
    assertThat(operation).as("%s %s is described", method, template).isNotNull();
    String status = String.valueOf(response.statusCode());
    String what = method + " " + template + " " + status;
    JsonNode documented = operation.get("responses").get(status);
    assertThat(documented).as("%s is documented (body %s)", what, body).isNotNull();
    checkHeaders(response, documented, what);
    checkBody(response, body, documented, what, template, method, status);
    checked.add(what);
    return response;
  }

  private void checkHeaders(HttpResponse<?> response, JsonNode documented, String what) {
    JsonNode headers = documented.get("headers");
    if (headers == null) {
      return;
    }
    headers
        .properties()
        .forEach(
            h -> {
              Optional<String> value = response.headers().firstValue(h.getKey());
              if (h.getValue().path("required").asBoolean(false)) {
                assertThat(value).as("%s has header %s", what, h.getKey()).isPresent();
              }
              if (value.isEmpty()) {
                return;
              }
              JsonNode schema = h.getValue().path("schema");
              String format = schema.path("format").asString("");
              if (format.equals("uri") || format.equals("uri-reference")) {
                URI uri;
                try {
                  uri = new URI(value.get());
                } catch (URISyntaxException e) {
                  throw new AssertionError(what + " header " + h.getKey() + " is not a URI", e);
                }
                if (format.equals("uri")) {
                  assertThat(uri.isAbsolute())
                      .as("%s header %s = %s is format uri (absolute)", what, h.getKey(), uri)
                      .isTrue();
                }
              }
              if (schema.path("type").asString("").equals("integer")) {
                long n = Long.parseLong(value.get().strip());
                if (schema.has("minimum")) {
                  assertThat(n)
                      .as("%s header %s", what, h.getKey())
                      .isGreaterThanOrEqualTo(schema.get("minimum").asLong());
                }
              }
            });
  }

  private void checkBody(
      HttpResponse<?> response,
      String body,
      JsonNode documented,
      String what,
      String template,
      String method,
      String status) {
    JsonNode content = documented.get("content");
    if (content == null) {
      assertThat(body == null ? "" : body).as("%s has no body", what).isEmpty();
      return;
    }
    String contentType =
        response.headers().firstValue("Content-Type").orElse("").split(";")[0].strip();
    assertThat(content.propertyNames())
        .as("%s is sent as %s, one of the documented types", what, contentType)
        .contains(contentType);
    if (!contentType.endsWith("json")) {
      return;
    }
    JsonNode instance = Api.JSON.readTree(body);
    String pointer =
        "/paths/"
            + escape(template)
            + "/"
            + method.toLowerCase()
            + "/responses/"
            + status
            + "/content/"
            + escape(contentType)
            + "/schema";
    List<Error> errors = schema(pointer).validate(instance);
    assertThat(errors).as("%s body %s against the description", what, body).isEmpty();
  }

  /**
   * The schema at {@code pointer} of the description: the whole document with a root {@code $ref}
   * to it, so that its references to {@code #/components/schemas/...} resolve in the document.
   */
  private Schema schema(String pointer) {
    ObjectNode root = ((ObjectNode) description).deepCopy();
    root.put("$ref", "#" + pointer);
    return registry.getSchema(SchemaLocation.of("https://captchajobs.test/openapi.json"), root);
  }

  private static String escape(String segment) {
    return segment.replace("~", "~0").replace("/", "~1");
  }

  /** The described path template that matches {@code path}, literal segments first. */
  private String template(String path) {
    String[] parts = path.split("/");
    String best = null;
    int bestLiterals = -1;
    for (String t : (Iterable<String>) description.get("paths").propertyNames()::iterator) {
      String[] tp = t.split("/");
      if (tp.length != parts.length) {
        continue;
      }
      int literals = 0;
      boolean match = true;
      for (int i = 0; i < tp.length && match; i++) {
        if (tp[i].startsWith("{") && tp[i].endsWith("}")) {
          match = !parts[i].isEmpty();
        } else if (tp[i].equals(parts[i])) {
          literals++;
        } else {
          match = false;
        }
      }
      if (match && literals > bestLiterals) {
        best = t;
        bestLiterals = literals;
      }
    }
    return best;
  }
}

package com.captchajobs.app.web;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.client.CaptchaType;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the flat JSON body of {@code POST /api/solves} into a {@link SolveRequest}, by hand from
 * the tree so that every wrong type is reported with the field's name (data binding would report a
 * Java path). The type's fields are at top level beside {@code businessKey}, {@code type}, {@code
 * priority} and {@code callbackUrl}; numbers and booleans are accepted where the provider takes
 * them ({@code minScore: 0.7}, {@code invisible: true}).
 */
final class SolveRequestJson {

  private static final Set<String> ENVELOPE =
      Set.of("businessKey", "type", "priority", "callbackUrl", "batch");
  private static final String TYPES =
      Arrays.stream(CaptchaType.values()).map(Enum::name).collect(Collectors.joining(", "));

  private final JsonMapper json =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .build();

  /**
   * @throws ApiProblem 400 naming the field
   */
  SolveRequest read(byte[] body) {
    JsonNode root;
    try {
      root = json.readTree(body);
    } catch (JacksonException e) {
      throw ApiProblem.badField("body", "body is not valid JSON: " + e.getOriginalMessage());
    } catch (NumberFormatException e) {
      // a number beyond even BigDecimal's exponent range, e.g. 1e9999999999
      String field = unparsableNumber(body);
      throw ApiProblem.badField(field, field + " is a number out of range (it must fit a double)");
    }
    if (root == null || !root.isObject()) {
      throw ApiProblem.badField("body", "body must be a JSON object");
    }
    String businessKey = requiredString(root, "businessKey");
    CaptchaType type = type(requiredString(root, "type"));
    Map<String, String> params = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (!ENVELOPE.contains(e.getKey()) && !e.getValue().isNull()) {
        params.put(e.getKey(), scalar(e.getKey(), e.getValue()));
      }
    }
    SolveRequest request = SolveRequest.of(businessKey, type, params);
    JsonNode priority = root.get("priority");
    if (priority != null && !priority.isNull()) {
      if (!priority.isIntegralNumber() || !priority.canConvertToInt()) {
        throw ApiProblem.badField("priority", "priority must be an integer");
      }
      request = request.withPriority(priority.intValue());
    }
    JsonNode callback = root.get("callbackUrl");
    if (callback != null && !callback.isNull()) {
      if (!callback.isString()) {
        throw ApiProblem.badField("callbackUrl", "callbackUrl must be a string");
      }
      request = request.withCallbackUrl(callback.stringValue());
    }
    JsonNode batch = root.get("batch");
    if (batch != null && !batch.isNull()) {
      if (!batch.isString()) {
        throw ApiProblem.badField("batch", "batch must be a string");
      }
      request = request.withBatch(batch.stringValue());
    }
    return request;
  }

  /** The name of the first field whose number cannot be read, or {@code body}. */
  private String unparsableNumber(byte[] body) {
    try (JsonParser p = json.createParser(body)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT) {
          try {
            p.getDecimalValue();
          } catch (NumberFormatException e) {
            return p.currentName() == null ? "body" : p.currentName();
          }
        }
      }
    } catch (JacksonException | NumberFormatException e) {
      // fall through: the body as a whole
    }
    return "body";
  }

  private static String requiredString(JsonNode root, String field) {
    JsonNode node = root.get(field);
    if (node == null || node.isNull()) {
      throw ApiProblem.badField(field, field + " is required");
    }
    if (!node.isString()) {
      throw ApiProblem.badField(field, field + " must be a string");
    }
    return node.stringValue();
  }

  private static CaptchaType type(String value) {
    try {
      return CaptchaType.valueOf(value);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.badField("type", "type must be one of " + TYPES);
    }
  }

  /** Largest magnitude of a number field: a double's. */
  private static final BigDecimal MAX = new BigDecimal(Double.MAX_VALUE);

  /** Smallest non-zero magnitude of a number field: a normal double's. */
  private static final BigDecimal MIN = new BigDecimal(Double.MIN_NORMAL);

  /**
   * A number as the plain decimal the provider is sent. Floats are read as {@link BigDecimal}
   * (exact, never infinite), so a number that does not fit a double, such as {@code 1e400} or
   * {@code 1e-400}, is refused naming its field instead of becoming infinity or zero.
   */
  private static String number(String field, JsonNode node) {
    BigDecimal value = node.decimalValue();
    BigDecimal magnitude = value.abs();
    if (magnitude.compareTo(MAX) > 0 || (value.signum() != 0 && magnitude.compareTo(MIN) < 0)) {
      throw ApiProblem.badField(field, field + " is a number out of range (it must fit a double)");
    }
    return value.toPlainString();
  }

  private static String scalar(String field, JsonNode node) {
    if (node.isString()) {
      return node.stringValue();
    }
    if (node.isNumber()) {
      return number(field, node);
    }
    if (node.isBoolean()) {
      return String.valueOf(node.booleanValue());
    }
    throw ApiProblem.badField(field, field + " must be a string, number or boolean");
  }
}

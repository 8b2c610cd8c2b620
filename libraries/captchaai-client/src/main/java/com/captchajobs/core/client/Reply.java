package com.captchajobs.core.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.regex.Pattern;

/**
 * One decoded 2xx in.php/res.php body. CaptchaAI does not always honour {@code json=1}, so this
 * reads JSON and plain text alike (see "Replies" in docs/captchaai-contract.md) and never throws: a
 * body it cannot read becomes {@link Garbled}.
 */
sealed interface Reply {

  /** {@code status=1} or {@code OK|value}: a task id, token, balance or report receipt. */
  record Ok(String value, String userAgent) implements Reply {}

  /** A provider code such as {@code CAPCHA_NOT_READY} or {@code ERROR_ZERO_BALANCE}. */
  record Code(String code) implements Reply {}

  /** A JSON object without {@code status}, as {@code threadsinfo} answers. */
  record Bare(JsonNode object) implements Reply {}

  /** Neither an answer nor a code; {@code detail} summarises it without quoting it. */
  record Garbled(String code, String detail) implements Reply {}

  /** Upper-case codes (CAPCHA_NOT_READY, IP_BANNED) and 2captcha's "ERROR: 1001" suspensions. */
  Pattern CODE = Pattern.compile("[A-Z][A-Z0-9_]*|ERROR:\\s*\\d+");

  /** A bare number, which is how getbalance answers in plain text. */
  Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");

  JsonMapper JSON = JsonMapper.builder().build();

  static Reply parse(String body) {
    String text = body == null ? "" : body.strip();
    if (text.isEmpty()) {
      return new Garbled(CaptchaAiTransportException.EMPTY_BODY, null);
    }
    if (text.startsWith("{")) {
      return parseJson(text);
    }
    if (looksLikeHtml(text)) {
      return unrecognised("HTML page");
    }
    return parsePlain(text);
  }

  private static Reply parsePlain(String text) {
    if (text.startsWith("OK|")) {
      String value = text.substring(3);
      return value.isEmpty() ? unrecognised("OK without a value") : new Ok(value, null);
    }
    if (text.equals("OK_REPORT_RECORDED") || NUMBER.matcher(text).matches()) {
      return new Ok(text, null);
    }
    if (CODE.matcher(text).matches()) {
      return new Code(text);
    }
    return unrecognised(text.length() + " chars of text");
  }

  private static Reply parseJson(String text) {
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      return unrecognised("malformed JSON");
    }
    if (!node.isObject()) {
      return unrecognised("JSON that is not an object");
    }
    String request = asText(node.get("request"));
    JsonNode status = node.get("status");
    if (status == null) {
      return request != null && CODE.matcher(request).matches()
          ? new Code(request)
          : new Bare(node);
    }
    if (isOne(status)) {
      String value = asText(node.get("result"));
      value = value != null ? value : request;
      return value == null || value.isEmpty()
          ? unrecognised("status 1 without a value")
          : new Ok(value, asText(node.get("user_agent")));
    }
    if (request != null && CODE.matcher(request.strip()).matches()) {
      return new Code(request.strip());
    }
    return unrecognised("status " + status.asText() + " without a code");
  }

  /** Strings as they are, numbers as their digits, objects (GeeTest answers) as JSON text. */
  private static String asText(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    return node.isValueNode() ? node.asText() : node.toString();
  }

  private static boolean isOne(JsonNode status) {
    return "1".equals(status.isValueNode() ? status.asText().strip() : null);
  }

  /** Any markup counts: CaptchaAI's and its proxies' error pages are HTML, never a reply. */
  static boolean looksLikeHtml(String body) {
    return body.stripLeading().startsWith("<");
  }

  private static Garbled unrecognised(String detail) {
    return new Garbled(CaptchaAiTransportException.UNRECOGNISED_BODY, detail);
  }
}

package com.captchajobs.core.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * One call to CaptchaAI as {@link CaptchaAiClient} makes it: the key, {@code json=1} and the fields
 * posted as a form (the key in the body, never in the URL), the reply decoded into a {@link Reply},
 * and what a reply the caller cannot use becomes.
 */
final class FormPost {

  /** Report replies that mean "not counted", which is no reason to fail the caller. */
  static final Set<String> IGNORED_REPORT_CODES =
      Set.of("ERROR_DUPLICATE_REPORT", "REPORT_NOT_RECORDED");

  /** Replies are a few hundred bytes; anything near this is not CaptchaAI talking. */
  static final int MAX_BODY_BYTES = 1024 * 1024;

  private final OkHttpClient httpClient;
  private final String apiKey;

  FormPost(OkHttpClient httpClient, String apiKey) {
    this.httpClient = httpClient;
    this.apiKey = apiKey;
  }

  /** POSTs {@code key}, {@code json=1} and the fields as a form and decodes the 2xx body. */
  Reply call(HttpUrl url, Map<String, String> fields, String taskId) {
    FormBody.Builder form = new FormBody.Builder().add("key", apiKey).add("json", "1");
    fields.forEach(form::add);
    Request request = new Request.Builder().url(url).post(form.build()).build();
    try (Response response = httpClient.newCall(request).execute()) {
      byte[] bytes = response.peekBody(MAX_BODY_BYTES + 1L).bytes();
      String body = new String(bytes, StandardCharsets.UTF_8);
      if (response.isRedirect() || (response.code() >= 300 && response.code() < 400)) {
        throw new CaptchaAiTransportException(
            CaptchaAiTransportException.httpCode(response.code()),
            taskId,
            redirectDetail(response.header("Location"), url),
            null);
      }
      if (!response.isSuccessful()) {
        String detail = Reply.looksLikeHtml(body) ? "HTML page" : null;
        throw new CaptchaAiTransportException(
            CaptchaAiTransportException.httpCode(response.code()), taskId, detail, null);
      }
      if (bytes.length > MAX_BODY_BYTES) {
        throw new CaptchaAiTransportException(
            CaptchaAiTransportException.UNRECOGNISED_BODY, taskId, "body over 1 MiB", null);
      }
      Reply reply = Reply.parse(body);
      if (reply instanceof Reply.Garbled garbled) {
        throw new CaptchaAiTransportException(garbled.code(), taskId, garbled.detail(), null);
      }
      return reply;
    } catch (IOException e) {
      String code =
          isTimeout(e) ? CaptchaAiTransportException.TIMEOUT : CaptchaAiTransportException.NETWORK;
      throw new CaptchaAiTransportException(code, taskId, e.getClass().getSimpleName(), e);
    }
  }

  /**
   * Names only the host a redirect points at (never its path or query, which a hostile server may
   * fill with the form it was sent); the redirect itself is not followed.
   */
  static String redirectDetail(String location, HttpUrl from) {
    HttpUrl target = location == null ? null : from.resolve(location);
    return "redirect not followed (Location host: "
        + (target == null ? "none" : target.host())
        + ")";
  }

  private static boolean isTimeout(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InterruptedIOException && !Thread.currentThread().isInterrupted()) {
        return true;
      }
    }
    return false;
  }

  /** The exception for a reply the caller did not expect: a code, or a shape it cannot use. */
  static CaptchaAiException failure(Reply reply, String taskId) {
    if (reply instanceof Reply.Code code) {
      return new CaptchaAiApiException(code.code(), taskId);
    }
    String shape = reply instanceof Reply.Bare ? "JSON without status" : "unexpected answer";
    return new CaptchaAiTransportException(
        CaptchaAiTransportException.UNRECOGNISED_BODY, taskId, shape, null);
  }

  /** The res.php fields after key and json: action, then id when there is one. */
  static Map<String, String> action(String action, String taskId) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("action", action);
    if (taskId != null) {
      fields.put("id", taskId);
    }
    return fields;
  }

  static String requireTaskId(String taskId) {
    if (taskId == null || taskId.isBlank()) {
      throw new IllegalArgumentException("taskId must not be blank");
    }
    return taskId;
  }

  /** {@code threads} arrives as a string and {@code working_threads} as a number: take both. */
  static Integer count(JsonNode node) {
    if (node == null || !node.isValueNode()) {
      return null;
    }
    try {
      return Integer.valueOf(node.asText().strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A reply as text: an OK's value after {@code OK|}, a code, or a bare object; else a failure. */
  static String describe(Reply reply) {
    if (reply instanceof Reply.Ok ok) {
      return "OK|" + ok.value();
    }
    if (reply instanceof Reply.Code code) {
      return code.code();
    }
    if (reply instanceof Reply.Bare bare) {
      return bare.object().toString();
    }
    throw failure(reply, null);
  }
}

package com.captchajobs.simulator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/** A tiny test client for the simulator over real HTTP. */
final class ApiClient {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String baseUrl;
  private final Map<String, String> headers = new LinkedHashMap<>();

  ApiClient(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  ApiClient withHeader(String name, String value) {
    ApiClient copy = new ApiClient(baseUrl);
    copy.headers.putAll(headers);
    copy.headers.put(name, value);
    return copy;
  }

  static Map<String, String> params(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }

  HttpResponse<String> get(String path, Map<String, String> params) {
    return send(request(path + "?" + encode(params)).GET());
  }

  HttpResponse<String> postForm(String path, Map<String, String> params) {
    return send(
        request(path)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(encode(params))));
  }

  HttpResponse<String> postMultipart(
      String path, Map<String, String> params, String fileName, byte[] file) {
    String boundary = "----simtest" + System.nanoTime();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    params.forEach(
        (name, value) ->
            write(
                body,
                "--"
                    + boundary
                    + "\r\nContent-Disposition: form-data; name=\""
                    + name
                    + "\"\r\n\r\n"
                    + value
                    + "\r\n"));
    if (file != null) {
      write(
          body,
          "--"
              + boundary
              + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
              + fileName
              + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
      body.writeBytes(file);
      write(body, "\r\n");
    }
    write(body, "--" + boundary + "--\r\n");
    return send(
        request(path)
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
  }

  /** in.php with json=1 and the given key; returns the parsed body. */
  JsonNode submitJson(String key, String... pairs) {
    Map<String, String> p = params(pairs);
    p.put("key", key);
    p.put("json", "1");
    return json(get("/in.php", p));
  }

  JsonNode resJson(String key, String... pairs) {
    Map<String, String> p = params(pairs);
    p.put("key", key);
    p.put("json", "1");
    return json(get("/res.php", p));
  }

  JsonNode poll(String key, String id) {
    return resJson(key, "action", "get", "id", id);
  }

  /** The tests' own reader of replies (Jackson 3; the simulator itself writes with Jackson 2). */
  static final tools.jackson.databind.json.JsonMapper JSON =
      tools.jackson.databind.json.JsonMapper.builder().build();

  static JsonNode json(HttpResponse<String> response) {
    return ApiClient.JSON.readTree(response.body());
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10));
    headers.forEach(builder::header);
    return builder;
  }

  private static HttpResponse<String> send(HttpRequest.Builder builder) {
    try {
      return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String encode(Map<String, String> params) {
    return params.entrySet().stream()
        .map(
            e ->
                URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                    + "="
                    + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }

  private static void write(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }
}

package com.captchajobs.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A real HTTP client of the REST API on its random port. */
final class Api {

  static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  private final String token;

  Api(int port, String token) {
    this.base = "http://127.0.0.1:" + port;
    this.token = token;
  }

  String base() {
    return base;
  }

  HttpRequest.Builder request(String path, String authorization) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return b;
  }

  HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpClient http() {
    return http;
  }

  /** The Authorization header value, or null for an anonymous caller (no token). */
  String auth() {
    return token == null ? null : "Bearer " + token;
  }

  HttpResponse<String> post(String path, String json) {
    return send(
        request(path, auth())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  HttpResponse<String> get(String path) {
    return send(request(path, auth()).GET().build());
  }

  HttpResponse<String> claim(String id) {
    return send(
        request("/api/solves/" + id + "/claim", auth())
            .POST(HttpRequest.BodyPublishers.noBody())
            .build());
  }

  static JsonNode json(HttpResponse<String> response) {
    return JSON.readTree(response.body());
  }
}

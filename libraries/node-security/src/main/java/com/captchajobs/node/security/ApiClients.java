package com.captchajobs.node.security;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configured clients and their tokens. A presented token is checked in constant time: both
 * sides are hashed first (so lengths leak nothing) and every configured token is compared.
 */
public final class ApiClients {

  private record Entry(byte[] hash, ApiClient client) {}

  private final Map<String, ApiClient> byName;
  private final List<Entry> entries = new ArrayList<>();

  ApiClients(Map<String, ApiClient> byName, Map<String, List<String>> tokensByClient) {
    this.byName = Map.copyOf(byName);
    tokensByClient.forEach(
        (name, tokens) -> tokens.forEach(t -> entries.add(new Entry(sha256(t), byName.get(name)))));
  }

  /** The client holding this token. */
  public Optional<ApiClient> authenticate(String token) {
    byte[] presented = sha256(token);
    ApiClient found = null;
    for (Entry e : entries) {
      if (MessageDigest.isEqual(e.hash, presented)) {
        found = e.client;
      }
    }
    return Optional.ofNullable(found);
  }

  public Collection<ApiClient> all() {
    return byName.values();
  }

  /** True when some client has the role. */
  public boolean any(ApiRole role) {
    return byName.values().stream().anyMatch(c -> c.has(role));
  }

  @Override
  public String toString() {
    return "ApiClients" + byName.keySet();
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

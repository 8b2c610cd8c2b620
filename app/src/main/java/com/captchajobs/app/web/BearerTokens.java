package com.captchajobs.app.web;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Checks an {@code Authorization} header against the configured tokens in constant time: both sides
 * are hashed first (so lengths leak nothing) and every configured token is compared.
 */
final class BearerTokens {

  private final List<byte[]> hashes;

  BearerTokens(List<String> tokens) {
    this.hashes = tokens.stream().map(BearerTokens::sha256).toList();
  }

  boolean accepts(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] presented = sha256(authorization.substring(7).strip());
    boolean match = false;
    for (byte[] h : hashes) {
      match |= MessageDigest.isEqual(h, presented);
    }
    return match;
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

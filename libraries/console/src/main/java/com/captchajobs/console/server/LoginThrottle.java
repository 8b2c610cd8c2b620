package com.captchajobs.console.server;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpExchange;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Basic authentication that throttles guessing: a client address with {@link
 * DashboardLimits#failedLogins} failed attempts (wrong credentials sent) within a minute is
 * answered 429 until the oldest of them is a minute old, whatever it sends. Credentials are
 * compared in constant time. An IPv4 client is counted by its address, an IPv6 client by its /64
 * ({@link #clientKey}): one host usually holds a whole /64, and rotating within it must not reset
 * the count. At most 10,000 keys are tracked; the least recently seen is forgotten first.
 */
final class LoginThrottle extends Authenticator {

  private static final long WINDOW_NANOS = 60_000_000_000L;
  private static final int MAX_ADDRESSES = 10_000;

  private final BasicAuthenticator basic;
  private final int allowed;
  private final Refusals refusals;
  private final Map<InetAddress, Deque<Long>> failures =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InetAddress, Deque<Long>> eldest) {
          return size() > MAX_ADDRESSES;
        }
      };

  LoginThrottle(String username, String password, int allowed, Refusals refusals) {
    this.allowed = allowed;
    this.refusals = refusals;
    byte[] user = username.getBytes(StandardCharsets.UTF_8);
    byte[] pass = password.getBytes(StandardCharsets.UTF_8);
    this.basic =
        new BasicAuthenticator("JobRunr") {
          @Override
          public boolean checkCredentials(String u, String p) {
            // both compared, in constant time, whatever the first one gave
            boolean userOk = MessageDigest.isEqual(user, u.getBytes(StandardCharsets.UTF_8));
            boolean passOk = MessageDigest.isEqual(pass, p.getBytes(StandardCharsets.UTF_8));
            return userOk & passOk;
          }
        };
  }

  @Override
  public Result authenticate(HttpExchange exchange) {
    InetAddress address = clientKey(exchange.getRemoteAddress().getAddress());
    long now = System.nanoTime();
    if (recentFailures(address, now) >= allowed) {
      refusals.note(Refusals.Reason.LOGIN_THROTTLED);
      return new Failure(429);
    }
    Result result = basic.authenticate(exchange);
    boolean triedCredentials = exchange.getRequestHeaders().containsKey("Authorization");
    if (!(result instanceof Success) && triedCredentials) {
      refusals.note(Refusals.Reason.LOGIN_FAILED);
      synchronized (failures) {
        failures.computeIfAbsent(address, a -> new ArrayDeque<>()).addLast(now);
      }
    }
    return result;
  }

  /**
   * What failures are counted under: an IPv4 address itself, an IPv6 address's /64 (the last 64
   * bits and any scope dropped).
   */
  static InetAddress clientKey(InetAddress address) {
    if (!(address instanceof Inet6Address)) {
      return address;
    }
    byte[] prefix = Arrays.copyOf(address.getAddress(), 16);
    Arrays.fill(prefix, 8, 16, (byte) 0);
    try {
      return InetAddress.getByAddress(prefix);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("sixteen bytes are an IPv6 address", e);
    }
  }

  private int recentFailures(InetAddress address, long now) {
    synchronized (failures) {
      Deque<Long> times = failures.get(address);
      if (times == null) {
        return 0;
      }
      while (!times.isEmpty() && now - times.peekFirst() > WINDOW_NANOS) {
        times.removeFirst();
      }
      if (times.isEmpty()) {
        failures.remove(address);
        return 0;
      }
      return times.size();
    }
  }
}

package com.captchajobs.console.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The throttle's key: an IPv6 client is counted by its /64, an IPv4 client by its address. The
 * loopback interface has one IPv6 address only, so the exchanges here carry the remote address the
 * throttle reads; {@code DashboardServerTest} covers the throttle on a real socket.
 */
@Tag("unit")
class LoginThrottleTest {

  private static final int ALLOWED = 3;

  @Test
  void rotatingAddressesWithinOneIpv6Slash64DoesNotResetTheCount() throws Exception {
    LoginThrottle throttle =
        new LoginThrottle("ops", "the-right-password", ALLOWED, new Refusals());
    for (int i = 1; i <= ALLOWED; i++) {
      assertThat(code(throttle.authenticate(wrongLogin("2001:db8:1:2::" + i)))).isEqualTo(401);
    }

    assertThat(code(throttle.authenticate(wrongLogin("2001:db8:1:2:ffff:ffff:ffff:fffe"))))
        .isEqualTo(429);
    assertThat(code(throttle.authenticate(wrongLogin("2001:db8:1:3::1"))))
        .as("the next /64 is another client")
        .isEqualTo(401);
  }

  @Test
  void ipv4ClientsAreStillCountedOneAddressEach() throws Exception {
    LoginThrottle throttle =
        new LoginThrottle("ops", "the-right-password", ALLOWED, new Refusals());
    for (int i = 1; i <= ALLOWED; i++) {
      throttle.authenticate(wrongLogin("192.0.2.1"));
    }

    assertThat(code(throttle.authenticate(wrongLogin("192.0.2.1")))).isEqualTo(429);
    assertThat(code(throttle.authenticate(wrongLogin("192.0.2.2")))).isEqualTo(401);
  }

  @Test
  void theKeyOfAnIpv6AddressIsItsSlash64() throws Exception {
    assertThat(LoginThrottle.clientKey(InetAddress.getByName("2001:db8:1:2:aaaa:bbbb:cccc:dddd")))
        .isEqualTo(InetAddress.getByName("2001:db8:1:2::"));
    assertThat(LoginThrottle.clientKey(InetAddress.getByName("192.0.2.7")))
        .isEqualTo(InetAddress.getByName("192.0.2.7"));
  }

  private static int code(Authenticator.Result result) {
    if (result instanceof Authenticator.Failure f) {
      return f.getResponseCode();
    }
    if (result instanceof Authenticator.Retry r) {
      return r.getResponseCode();
    }
    return 200;
  }

  private static HttpExchange wrongLogin(String from) throws Exception {
    return new Exchange(
        InetAddress.getByName(from),
        "Basic "
            + Base64.getEncoder()
                .encodeToString("ops:a-wrong-guess".getBytes(StandardCharsets.UTF_8)));
  }

  /** An exchange that only says who sent it and what it sent. */
  private static final class Exchange extends HttpExchange {
    private final InetSocketAddress remote;
    private final Headers request = new Headers();
    private final Headers response = new Headers();

    Exchange(InetAddress from, String authorization) {
      this.remote = new InetSocketAddress(from, 40000);
      request.add("Authorization", authorization);
    }

    @Override
    public Headers getRequestHeaders() {
      return request;
    }

    @Override
    public Headers getResponseHeaders() {
      return response;
    }

    @Override
    public URI getRequestURI() {
      return URI.create("/api/jobs");
    }

    @Override
    public String getRequestMethod() {
      return "GET";
    }

    @Override
    public HttpContext getHttpContext() {
      return null;
    }

    @Override
    public void close() {}

    @Override
    public InputStream getRequestBody() {
      return new ByteArrayInputStream(new byte[0]);
    }

    @Override
    public OutputStream getResponseBody() {
      return new ByteArrayOutputStream();
    }

    @Override
    public void sendResponseHeaders(int rCode, long responseLength) {}

    @Override
    public InetSocketAddress getRemoteAddress() {
      return remote;
    }

    @Override
    public int getResponseCode() {
      return -1;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
      return new InetSocketAddress(InetAddress.getLoopbackAddress(), 8000);
    }

    @Override
    public String getProtocol() {
      return "HTTP/1.1";
    }

    @Override
    public Object getAttribute(String name) {
      return null;
    }

    @Override
    public void setAttribute(String name, Object value) {}

    @Override
    public void setStreams(InputStream i, OutputStream o) {}

    @Override
    public HttpPrincipal getPrincipal() {
      return null;
    }
  }
}

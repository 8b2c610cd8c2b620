package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The bench's database proxy over real sockets, with an echo server standing in for PostgreSQL. */
@Tag("unit")
class DatabaseProxyTest {

  ServerSocket echo;
  DatabaseProxy proxy;

  @BeforeEach
  void start() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t =
        new Thread(
            () -> {
              while (!echo.isClosed()) {
                try {
                  Socket s = echo.accept();
                  Thread pump =
                      new Thread(
                          () -> {
                            try (s) {
                              s.getInputStream().transferTo(s.getOutputStream());
                            } catch (IOException ignored) {
                              // reset by the proxy
                            }
                          });
                  pump.setDaemon(true);
                  pump.start();
                } catch (IOException e) {
                  return;
                }
              }
            });
    t.setDaemon(true);
    t.start();
    proxy = new DatabaseProxy(echo.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
  }

  @Test
  void bytesGoThroughUntilDownResetsTheOpenConnectionsAndRefusesNewOnesUntilUp() throws Exception {
    try (Socket before = connect()) {
      assertThat(roundTrip(before, "ping")).isEqualTo("ping");

      proxy.down();

      assertThatThrownBy(() -> roundTrip(before, "lost")).isInstanceOf(IOException.class);
      try (Socket during = connect()) {
        assertThatThrownBy(() -> roundTrip(during, "refused")).isInstanceOf(IOException.class);
      }
    }

    proxy.up();

    try (Socket after = connect()) {
      assertThat(roundTrip(after, "pong")).isEqualTo("pong");
    }
    assertThat(proxy.resetAndRefused()[0]).isEqualTo(1);
    assertThat(proxy.resetAndRefused()[1]).isGreaterThanOrEqualTo(1);
  }

  private Socket connect() throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
    s.setSoTimeout(5000);
    return s;
  }

  /** Writes the text and reads as many bytes back; an IOException when the connection is gone. */
  private static String roundTrip(Socket s, String text) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(text.getBytes());
    out.flush();
    InputStream in = s.getInputStream();
    byte[] buffer = new byte[text.length()];
    int read = 0;
    while (read < buffer.length) {
      int n = in.read(buffer, read, buffer.length - read);
      if (n < 0) {
        throw new SocketException("closed after " + read + " byte(s)");
      }
      read += n;
    }
    return new String(buffer);
  }
}

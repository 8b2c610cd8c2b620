package com.captchajobs.console.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** HTTP/1.1 by hand on a real socket, to send what no well-behaved client would. */
final class RawHttp {

  private RawHttp() {}

  /** The outcome of sending a head and then body bytes until the server stops taking them. */
  record Flood(long bytesTaken, String statusLine) {}

  static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Sends {@code head} (request line and headers, without the blank line) and then an endless body
   * until the server closes the connection, a write stalls or {@code limit} bytes were written.
   * Bytes the kernel buffers on either side count as taken, so the figure is an upper bound.
   */
  static Flood flood(InetSocketAddress to, String head, long limit, boolean chunked)
      throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(to, 5_000);
      socket.setSoTimeout(15_000);
      OutputStream out = socket.getOutputStream();
      out.write((head + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      byte[] chunk = new byte[64 * 1024];
      byte[] size = "10000\r\n".getBytes(StandardCharsets.ISO_8859_1);
      byte[] end = "\r\n".getBytes(StandardCharsets.ISO_8859_1);
      long taken = 0;
      try {
        while (taken < limit) {
          if (chunked) {
            out.write(size);
          }
          out.write(chunk);
          if (chunked) {
            out.write(end);
          }
          taken += chunk.length;
        }
      } catch (IOException closed) {
        // the server closed the connection: what was written so far is what it could have taken
      }
      return new Flood(taken, statusLine(socket.getInputStream()));
    }
  }

  /** Sends a whole request and returns the status line of its answer ("" when none came). */
  static String request(InetSocketAddress to, String head, String body) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(to, 5_000);
      socket.setSoTimeout(15_000);
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      String full =
          head
              + (bytes.length > 0 ? "\r\nContent-Length: " + bytes.length : "")
              + "\r\nConnection: close\r\n\r\n";
      socket.getOutputStream().write(full.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      return statusLine(socket.getInputStream());
    }
  }

  private static String statusLine(InputStream in) {
    StringBuilder line = new StringBuilder();
    try {
      int c;
      while ((c = in.read()) >= 0 && c != '\n') {
        if (c != '\r') {
          line.append((char) c);
        }
      }
    } catch (IOException e) {
      // reset by the server after its answer, or no answer at all
    }
    return line.toString();
  }
}

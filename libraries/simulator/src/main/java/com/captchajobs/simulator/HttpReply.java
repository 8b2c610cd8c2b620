package com.captchajobs.simulator;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A status, content type and body, and how to send them. */
record HttpReply(int status, String contentType, String body) {
  private static final Logger log = LoggerFactory.getLogger(HttpReply.class);

  static HttpReply json(String body) {
    return new HttpReply(200, "application/json", body);
  }

  static HttpReply text(String body) {
    return new HttpReply(200, "text/plain; charset=utf-8", body);
  }

  /** An nginx-style error page, as CaptchaAI's front end sends "in very rare cases". */
  static HttpReply html(int status) {
    String title = status + (status == 502 ? " Bad Gateway" : " Internal Server Error");
    return new HttpReply(
        status,
        "text/html",
        "<html>\r\n<head><title>"
            + title
            + "</title></head>\r\n<body>\r\n<center><h1>"
            + title
            + "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n");
  }

  void send(HttpExchange exchange) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        exchange.getResponseBody().write(bytes);
      }
    } catch (IOException e) {
      log.debug("Client went away before the reply was sent: {}", e.toString());
    }
  }
}

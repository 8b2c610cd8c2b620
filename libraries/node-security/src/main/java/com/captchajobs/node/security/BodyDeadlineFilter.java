package com.captchajobs.node.security;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.SocketTimeoutException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The body deadline: whatever reads a request's body (a controller, a message converter) gets it
 * only within {@code captchajobs.web.body-deadline} of the moment the node started to serve the
 * request. Tomcat's own timeout is per read, so a body sent one byte every few seconds was read for
 * as long as it lasted, on a worker thread. Past the deadline the next read fails with a timeout,
 * the request ends with an error, and {@link UnreadBodyValve} closes the connection instead of
 * draining the rest. A read already waiting for its next byte waits at most Tomcat's {@code
 * connection-timeout}. Runs ahead of every other filter; a request without a body passes unwrapped.
 */
final class BodyDeadlineFilter implements Filter {

  private final long deadlineNanos;

  BodyDeadlineFilter(Duration deadline) {
    this.deadlineNanos = deadline.toNanos();
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest http && http.getContentLengthLong() != 0) {
      chain.doFilter(new Deadlined(http, System.nanoTime() + deadlineNanos), response);
    } else {
      chain.doFilter(request, response);
    }
  }

  /** The request, its body readable until {@code deadline} ({@link System#nanoTime()}). */
  private static final class Deadlined extends HttpServletRequestWrapper {

    private final long deadline;
    private ServletInputStream body;

    Deadlined(HttpServletRequest request, long deadline) {
      super(request);
      this.deadline = deadline;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (body == null) {
        body = new DeadlinedStream(super.getInputStream(), deadline);
      }
      return body;
    }

    @Override
    public BufferedReader getReader() throws IOException {
      String encoding = getCharacterEncoding();
      Charset charset = encoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(encoding);
      return new BufferedReader(new InputStreamReader(getInputStream(), charset));
    }
  }

  private static final class DeadlinedStream extends ServletInputStream {

    private final ServletInputStream in;
    private final long deadline;

    DeadlinedStream(ServletInputStream in, long deadline) {
      this.in = in;
      this.deadline = deadline;
    }

    private void check() throws IOException {
      if (System.nanoTime() - deadline > 0) {
        throw new SocketTimeoutException("the request body did not arrive within its deadline");
      }
    }

    @Override
    public int read() throws IOException {
      check();
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      check();
      return in.read(b, off, len);
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}

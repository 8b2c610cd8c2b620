package com.captchajobs.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on 127.0.0.1 whose open connections can be made half-open: {@link #blackholeOpen()}
 * stops forwarding on every connection open now, without closing either side (what a NAT that
 * forgot a connection, or a failover without a reset, looks like to both ends). New connections are
 * forwarded normally.
 */
public final class BlackholeProxy implements AutoCloseable {

  private final ServerSocket server;
  private final int targetPort;
  private final List<Pipe> pipes = new CopyOnWriteArrayList<>();
  private volatile boolean down;

  public BlackholeProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "blackhole-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Every connection open now silently stops carrying bytes, both ways. */
  public void blackholeOpen() {
    pipes.forEach(p -> p.blackholed = true);
  }

  /**
   * The far end goes away: every open connection is reset and new ones are refused until {@link
   * #up()} (what a database restart or a failover looks like to its clients).
   */
  public void down() {
    down = true;
    pipes.forEach(Pipe::close);
    pipes.clear();
  }

  /** Connections are accepted and forwarded again. */
  public void up() {
    down = false;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        if (down) {
          client.close();
          continue;
        }
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        Pipe pipe = new Pipe(client, upstream);
        pipes.add(pipe);
        pump(pipe, client.getInputStream(), upstream.getOutputStream());
        pump(pipe, upstream.getInputStream(), client.getOutputStream());
      } catch (IOException e) {
        // closed, or one connection failed: keep serving the others
      }
    }
  }

  private static void pump(Pipe pipe, InputStream in, OutputStream out) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[8192];
              try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  if (!pipe.blackholed) {
                    out.write(buffer, 0, n);
                    out.flush();
                  }
                }
              } catch (IOException e) {
                // one side went away
              }
              if (!pipe.blackholed) {
                pipe.close();
              }
            },
            "blackhole-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
    pipes.forEach(Pipe::close);
  }

  private static final class Pipe {
    final Socket a;
    final Socket b;
    volatile boolean blackholed;

    Pipe(Socket a, Socket b) {
      this.a = a;
      this.b = b;
    }

    void close() {
      try {
        a.close();
      } catch (IOException ignored) {
        // closing
      }
      try {
        b.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }
}

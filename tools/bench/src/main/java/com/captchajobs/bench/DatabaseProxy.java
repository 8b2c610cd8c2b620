package com.captchajobs.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 in front of the run's PostgreSQL, through which every node (the app node
 * and the workers) reaches it, while the bench's own reads go directly. {@link #down()} is a
 * database outage as the nodes see it: every open connection is reset and new ones are refused
 * until {@link #up()}. A PostgreSQL restart behind it looks the same to the nodes, since the proxy
 * keeps its port.
 */
final class DatabaseProxy implements AutoCloseable {

  private final ServerSocket server;
  private final int targetPort;
  private final Set<Pipe> pipes = ConcurrentHashMap.newKeySet();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong reset = new AtomicLong();
  private volatile boolean down;

  DatabaseProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "bench-db-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return server.getLocalPort();
  }

  /** Resets every open connection and refuses new ones until {@link #up()}. */
  void down() {
    down = true;
    for (Pipe p : pipes) {
      p.reset();
      reset.incrementAndGet();
    }
  }

  /** Connections are accepted and forwarded again. */
  void up() {
    down = false;
  }

  boolean isDown() {
    return down;
  }

  /** Connections open now (each node holds its pool, its LISTEN connection and JobRunr's). */
  int open() {
    return pipes.size();
  }

  /** Connections reset by {@link #down()} and refused while down, since the start. */
  long[] resetAndRefused() {
    return new long[] {reset.get(), refused.get()};
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        continue; // closed: the loop ends
      }
      if (down) {
        refused.incrementAndGet();
        Pipe.hardClose(client);
        continue;
      }
      try {
        client.setTcpNoDelay(true);
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        upstream.setTcpNoDelay(true);
        Pipe pipe = new Pipe(client, upstream);
        pipes.add(pipe);
        pump(pipe, client.getInputStream(), upstream.getOutputStream());
        pump(pipe, upstream.getInputStream(), client.getOutputStream());
      } catch (IOException e) {
        // PostgreSQL is restarting: the client sees its connection closed
        Pipe.hardClose(client);
      }
    }
  }

  private void pump(Pipe pipe, InputStream in, OutputStream out) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[16384];
              try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side went away
              }
              pipe.close();
              pipes.remove(pipe);
            },
            "bench-db-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException ignored) {
      // closing
    }
    pipes.forEach(Pipe::close);
    pipes.clear();
  }

  private static final class Pipe {
    final Socket client;
    final Socket upstream;

    Pipe(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
    }

    /** Both sides see a reset (RST), not an orderly close: the way a dead server looks. */
    void reset() {
      hardClose(client);
      hardClose(upstream);
    }

    void close() {
      try {
        client.close();
      } catch (IOException ignored) {
        // closing
      }
      try {
        upstream.close();
      } catch (IOException ignored) {
        // closing
      }
    }

    static void hardClose(Socket s) {
      try {
        s.setSoLinger(true, 0);
      } catch (IOException ignored) {
        // already closed
      }
      try {
        s.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }
}

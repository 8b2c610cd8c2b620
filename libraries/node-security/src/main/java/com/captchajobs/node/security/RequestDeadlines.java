package com.captchajobs.node.security;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProcessor;
import org.apache.coyote.Constants;
import org.apache.coyote.Request;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

/**
 * The header deadline on Tomcat's connectors: a request's headers must all arrive within {@code
 * headers} of its first byte ({@link BodyDeadlineFilter} bounds the body). Tomcat's own {@code
 * connection-timeout} is per read, so a caller sending one byte every few seconds was never timed
 * out. Every {@link #TICK}, a watchdog looks at each open connection of each connector; one past
 * its deadline is timed out as Tomcat's poller times out a read ({@link
 * WatchedNioProtocol#timeOut}): Tomcat closes it on its own threads and by its own path. Never
 * closes a socket itself, and touches no request that is being answered or a connection idle
 * between requests (the keep-alive timeout covers those).
 */
final class RequestDeadlines
    implements TomcatConnectorCustomizer,
        WebServerFactoryCustomizer<TomcatWebServerFactory>,
        DisposableBean {

  /** How often the watchdog looks: a deadline holds to within this plus one poller round (1 s). */
  static final Duration TICK = Duration.ofMillis(250);

  private final long headerNanos;
  private final List<WatchedNioProtocol> protocols = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService watchdog;

  RequestDeadlines(Duration headers) {
    this.headerNanos = headers.toNanos();
    this.watchdog =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "captchajobs-request-deadlines");
              t.setDaemon(true);
              return t;
            });
    watchdog.scheduleWithFixedDelay(
        this::sweep, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Every connector of the server is a {@link WatchedNioProtocol}, so its connections are seen. */
  @Override
  public void customize(TomcatWebServerFactory factory) {
    factory.setProtocol(WatchedNioProtocol.class.getName());
  }

  @Override
  public void customize(Connector connector) {
    if (connector.getProtocolHandler() instanceof WatchedNioProtocol protocol) {
      protocols.add(protocol);
    }
  }

  @Override
  public void destroy() {
    watchdog.shutdownNow();
  }

  /** One look at every open connection; never throws (a closing connection may change under it). */
  void sweep() {
    long now = System.nanoTime();
    for (WatchedNioProtocol protocol : protocols) {
      for (SocketWrapperBase<NioChannel> socket : protocol.openConnections()) {
        try {
          if (headersLate(socket, now)) {
            protocol.timeOut(socket);
          }
        } catch (RuntimeException e) {
          // the connection went away while looked at: nothing to time out
        }
      }
    }
  }

  private boolean headersLate(SocketWrapperBase<?> socket, long now) {
    if (!(socket.getCurrentProcessor() instanceof AbstractProcessor processor)
        || socket.isClosed()
        || socket.getError() != null) {
      return false;
    }
    Request request = processor.getRequest();
    int stage = request.getRequestProcessor().getStage();
    if (stage == Constants.STAGE_PARSE
        || stage == Constants.STAGE_KEEPALIVE
        || stage == Constants.STAGE_ENDED) {
      // headers still coming: between two reads Tomcat leaves an incomplete request in the ended
      // stage, with the start time of its first byte, on the connection; a connection idle
      // between requests has no request on it (or one recycled, without a start time)
      long started = request.getStartTimeNanos();
      return started > 0 && now - started > headerNanos;
    }
    return false;
  }
}

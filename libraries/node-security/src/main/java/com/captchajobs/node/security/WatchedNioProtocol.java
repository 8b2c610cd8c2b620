package com.captchajobs.node.security;

import java.net.SocketTimeoutException;
import java.util.Set;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's NIO HTTP/1.1 connector, with its open connections visible to {@link RequestDeadlines}
 * and a way to time one out (Tomcat keeps its endpoint to itself). Every node's web server uses it
 * ({@code TomcatWebServerFactory.setProtocol}); nothing else differs from Tomcat's own.
 */
public class WatchedNioProtocol extends Http11NioProtocol {

  /** The connections open right now, as Tomcat's endpoint holds them. */
  Set<SocketWrapperBase<NioChannel>> openConnections() {
    return getEndpoint().getConnections();
  }

  /**
   * Times out a connection that waits for the rest of a request's headers, as Tomcat's poller does
   * when a read waited too long: the connection is marked with a timeout and handed to a worker as
   * an error, which closes it under the connection's own lock.
   */
  void timeOut(SocketWrapperBase<NioChannel> connection) {
    connection.setReadTimeout(1);
    connection.setError(new SocketTimeoutException("request deadline passed"));
    getEndpoint().processSocket(connection, SocketEvent.ERROR, true);
  }
}

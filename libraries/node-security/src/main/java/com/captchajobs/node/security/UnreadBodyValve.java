package com.captchajobs.node.security;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Closes the connection after a response when the request's body was not read to its end, instead
 * of letting Tomcat drain it on the worker thread. Tomcat reads an unread body before the next
 * request of the connection (up to {@code server.tomcat.max-swallow-size}, each read waiting up to
 * {@code connection-timeout}), so a caller that declares 4 KiB and sends one byte every few seconds
 * after a 401 or 404 held a thread for hours. Here the thread is free as soon as the answer is
 * written: Tomcat's own {@link ActionCode#DISABLE_SWALLOW_INPUT} skips the drain, sends the answer
 * with {@code Connection: close} and closes the connection. It runs on the engine, after the error
 * pages, and the answer keeps its status. A caller whose body was read (every API call that takes
 * one) keeps its connection; so does an asynchronous request (event streams), which has no body.
 */
final class UnreadBodyValve extends ValveBase {

  UnreadBodyValve() {
    super(true);
  }

  @Override
  public void invoke(Request request, Response response) throws IOException, ServletException {
    getNext().invoke(request, response);
    if (request.isAsyncStarted() || request.getCoyoteRequest().isFinished()) {
      return;
    }
    // the action marks the exchange as an error, so that Tomcat sends "Connection: close" and
    // closes; it also turns a status under 400 into 500, which the answer keeps from before
    int status = response.getStatus();
    response.setHeader("Connection", "close"); // the client must not send another request on it
    request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
    if (!response.isCommitted()) {
      response.getCoyoteResponse().setStatus(status);
    }
  }
}

package com.captchajobs.node.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * A node whose port is taken names the property that set it: {@code server.port} (the API or the
 * node's own web server) or {@code management.server.port} (Actuator), each with its value, where
 * Spring Boot's own analysis only names the port. Several nodes on one machine (the README's fleet)
 * are exactly where this happens. Runs before Boot's analyzer.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
public class PortInUseFailureAnalyzer extends AbstractFailureAnalyzer<PortInUseException> {

  private final Environment environment;

  public PortInUseFailureAnalyzer(Environment environment) {
    this.environment = environment;
  }

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, PortInUseException cause) {
    String property = propertyOf(cause.getPort());
    return new FailureAnalysis(
        "Port " + cause.getPort() + " is already in use (" + property + ").",
        "Set "
            + property
            + " to a free port (for example --"
            + property
            + "="
            + (cause.getPort() + 1)
            + "), or stop the process listening on "
            + cause.getPort()
            + ". Nodes on one machine each need their own server.port and management.server.port.",
        cause);
  }

  private String propertyOf(int port) {
    String value = String.valueOf(port);
    if (value.equals(environment.getProperty("management.server.port"))) {
      return "management.server.port";
    }
    if (value.equals(environment.getProperty("server.port", "8080"))) {
      return "server.port";
    }
    return "server.port or management.server.port";
  }
}

package com.captchajobs.node.security;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The defaults every node shares: its own connection pool's pinned {@code search_path}, a bounded
 * Tomcat ({@link #boundedWeb}), and actuator on its own port, closed but for plain health ({@link
 * NodeSecurityConfiguration}), Kubernetes probes on. Each node's main adds its own names and port
 * to these; anything the operator sets wins.
 */
public final class NodeDefaults {

  private NodeDefaults() {}

  /** The search_path a node's own connections are pinned to. */
  public static final String SEARCH_PATH = "public";

  /**
   * A node owns its connection pool, so it pins the pool's {@code search_path} to {@value
   * #SEARCH_PATH} (PgJDBC's {@code currentSchema}, sent when each connection opens). On
   * PostgreSQL's default {@code "$user", public} a database user named like our schema ({@code
   * captchajobs}, as the README's fleet exports) would otherwise resolve unqualified names into our
   * schema, which the core refuses at startup; the node's own SQL names every table with its
   * schema, so the pin changes nothing else. A {@code currentSchema} in {@code
   * spring.datasource.url} wins over it.
   */
  public static Map<String, Object> ownPool() {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("spring.datasource.hikari.data-source-properties.currentSchema", SEARCH_PATH);
    return defaults;
  }

  /** Actuator on {@code port}, closed but for plain health, probes on. */
  public static Map<String, Object> management(int port) {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("management.server.port", String.valueOf(port));
    defaults.put(
        "management.endpoints.web.exposure.include", "health,info,metrics,prometheus,breaker");
    defaults.put("management.endpoint.health.show-details", "when-authorized");
    defaults.put("management.endpoint.health.roles", "OPERATOR");
    defaults.put("management.endpoint.health.probes.enabled", "true");
    return defaults;
  }

  /**
   * {@link #management} plus the probe groups of a node that may run the engine: an open breaker or
   * an unreachable provider makes a node not ready (it stops taking traffic), never not live (no
   * restart loop across the fleet).
   */
  public static Map<String, Object> managementWithProbeGroups(int port) {
    Map<String, Object> defaults = management(port);
    defaults.put(
        "management.endpoint.health.group.readiness.include", "readinessState,breaker,provider");
    defaults.put("management.endpoint.health.group.liveness.include", "livenessState");
    // breaker and provider exist on workers only
    defaults.put("management.endpoint.health.validate-group-membership", "false");
    return defaults;
  }

  /**
   * Tomcat bounded for callers that have not authenticated (the pingback path, the API before its
   * token is checked): a fixed number of threads and waiting connections, 10 s for each read, 10 s
   * in all for a request's headers and 10 s for its body ({@link #REQUEST_DEADLINE}, enforced by
   * {@code RequestDeadlines}, {@code BodyDeadlineFilter}), a form body parsed only up to 16 KiB, a
   * body nobody read never drained (the connection is closed: {@code UnreadBodyValve}), no form
   * body read before the security filters ({@code FormContentFilter} off: no node takes a PUT,
   * PATCH or DELETE form), and no multipart parsing at all (no node takes a file, so no part is
   * ever written to disk).
   */
  /** The default whole-request deadline for headers and, separately, for the body. */
  public static final Duration REQUEST_DEADLINE = Duration.ofSeconds(10);

  public static Map<String, Object> boundedWeb() {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("server.tomcat.threads.max", "200");
    defaults.put("server.tomcat.accept-count", "100");
    defaults.put("server.tomcat.max-connections", "2000");
    defaults.put("server.tomcat.connection-timeout", "10s");
    defaults.put("server.tomcat.keep-alive-timeout", "20s");
    defaults.put("server.tomcat.max-http-form-post-size", "16KB");
    defaults.put("server.tomcat.max-swallow-size", "16KB");
    defaults.put("spring.servlet.multipart.enabled", "false");
    defaults.put("spring.mvc.formcontent.filter.enabled", "false");
    defaults.put(NodeSecurityConfiguration.HEADER_DEADLINE, "10s");
    defaults.put(NodeSecurityConfiguration.BODY_DEADLINE, "10s");
    return defaults;
  }
}

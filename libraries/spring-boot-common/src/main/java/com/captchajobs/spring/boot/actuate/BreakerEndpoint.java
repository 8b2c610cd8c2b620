package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.LocalWorker;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code GET /actuator/breaker} shows the fleet's breaker; {@code DELETE /actuator/breaker} closes
 * it after an operator has fixed the key or the plan. Shows the key's fingerprint, never the key.
 */
@Endpoint(id = "breaker")
public class BreakerEndpoint {

  private final LocalWorker worker;

  /**
   * @param worker this node's worker, whose key's breaker is shown
   */
  public BreakerEndpoint(LocalWorker worker) {
    this.worker = worker;
  }

  @ReadOperation
  public Map<String, Object> state() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("keyFingerprint", worker.keyFingerprint());
    worker
        .breaker()
        .ifPresentOrElse(
            s -> {
              body.put("open", s.open());
              body.put("errorCode", s.errorCode());
              body.put("reason", s.reason());
              body.put("openedAt", String.valueOf(s.openedAt()));
            },
            () -> body.put("open", false));
    return body;
  }

  @DeleteOperation
  public Map<String, Object> closeBreaker() {
    boolean wasOpen = worker.closeBreaker();
    Map<String, Object> body = state();
    body.put("closedNow", wasOpen);
    return body;
  }
}

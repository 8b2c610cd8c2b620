package com.captchajobs.app.web;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.pingback.PingbackReceiver;
import io.swagger.v3.oas.annotations.Hidden;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Answers pushed by CaptchaAI (see docs/pingback.md): {@code GET /captchaai/pingback/<solve
 * id>/<submit no>/<signature>?id=<task id>&code=<answer>}, on the API port and without a bearer
 * token, since the provider cannot send one. The signature in the path is what is trusted: a push
 * counts only when it matches and {@code id} is the task of that very submission, still waiting for
 * its answer. 200 when the push counted, 404 for anything else (nothing is stored then), 503 when
 * the database could not be reached (the fallback poll will find the answer).
 */
@Hidden // the provider's callback, not part of the API clients use
@RestController
public class PingbackController {

  private final Optional<PingbackReceiver> pingbacks;

  public PingbackController(CaptchaJobs captchaJobs) {
    this.pingbacks = captchaJobs.pingbacks();
  }

  @RequestMapping(
      path = PingbackReceiver.PATH + "/{solveId}/{submitNo}/{signature}",
      method = {RequestMethod.GET, RequestMethod.POST},
      produces = MediaType.TEXT_PLAIN_VALUE)
  public ResponseEntity<String> push(
      @PathVariable String solveId,
      @PathVariable String submitNo,
      @PathVariable String signature,
      @RequestParam(name = "id", required = false) String taskId,
      @RequestParam(name = "code", required = false) String code) {
    if (pingbacks.isEmpty()) {
      return notFound();
    }
    PingbackReceiver.Verdict verdict;
    try {
      verdict = pingbacks.get().receive(solveId, submitNo, signature, taskId, code);
    } catch (RuntimeException e) {
      return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body("");
    }
    return verdict == PingbackReceiver.Verdict.REFUSED ? notFound() : ResponseEntity.ok("OK");
  }

  /** Any other path under the pingback prefix. */
  @RequestMapping(path = PingbackReceiver.PATH + "/**")
  public ResponseEntity<String> elsewhere() {
    return notFound();
  }

  private static ResponseEntity<String> notFound() {
    return ResponseEntity.status(HttpStatus.NOT_FOUND).body("");
  }
}

package com.captchajobs.app.sandbox;

import com.captchajobs.core.SolveException;
import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.model.ClaimedToken;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A mixed batch through the whole system, each outcome logged: solves of several types, one
 * permanent failure (site key {@code invalid}: the provider rejects it, one in.php call, no retry)
 * and one unsolvable (a page URL containing {@code unsolvable}: submitted once more, then failed).
 * Tokens are claimed and only their length is logged.
 */
public final class DemoBatch {

  private static final Logger log = LoggerFactory.getLogger(DemoBatch.class);
  private static final String TURNSTILE_KEY = "0x4AAAAAAADnPIDROrmt1Wwj";
  private static final String RECAPTCHA_KEY = "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf";

  private final Solves solves;
  private final Duration timeout;

  public DemoBatch(Solves solves, Duration timeout) {
    this.solves = solves;
    this.timeout = timeout;
  }

  /** The batch; business keys carry {@code run} so that a rerun makes new solves. */
  static List<SolveRequest> requests(String run) {
    byte[] image = new byte[400];
    new Random(7).nextBytes(image);
    String page = "https://demo.example.test/" + run;
    return List.of(
        SolveRequest.turnstile("demo-" + run + "-turnstile", TURNSTILE_KEY, page + "/login"),
        SolveRequest.recaptchaV2("demo-" + run + "-recaptcha-v2", RECAPTCHA_KEY, page + "/signup"),
        SolveRequest.recaptchaV3(
                "demo-" + run + "-recaptcha-v3", RECAPTCHA_KEY, page + "/checkout", "checkout", 0.7)
            .withPriority(5),
        SolveRequest.image("demo-" + run + "-image", Base64.getEncoder().encodeToString(image)),
        SolveRequest.turnstile("demo-" + run + "-permanent-failure", "invalid", page + "/broken"),
        SolveRequest.turnstile("demo-" + run + "-unsolvable", TURNSTILE_KEY, page + "/unsolvable"));
  }

  /** Enqueues the batch and returns at once; outcomes are logged as they arrive. */
  public List<UUID> start() {
    String run = Long.toString(System.currentTimeMillis(), 36);
    List<UUID> ids = requests(run).stream().map(this::enqueue).toList();
    log.info("Demo: {} solves enqueued (run {}); outcomes follow as they arrive", ids.size(), run);
    return ids;
  }

  private UUID enqueue(SolveRequest request) {
    UUID id = solves.enqueue(request);
    solves.await(id, timeout).whenComplete((view, error) -> report(request, id, view, error));
    return id;
  }

  private void report(SolveRequest request, UUID id, SolveStatusView view, Throwable error) {
    if (error != null) {
      log.warn(
          "Demo {} {}: no outcome: {}", request.type(), request.businessKey(), error.getMessage());
    } else if (view.status() == SolveStatus.SOLVED) {
      try {
        ClaimedToken token = solves.claim(id);
        log.info(
            "Demo {} {}: SOLVED in {} submit(s), {} poll(s); token claimed ({} chars)",
            request.type(),
            request.businessKey(),
            view.submits(),
            view.polls(),
            token.token().length());
      } catch (SolveException e) {
        log.info(
            "Demo {} {}: SOLVED, claim refused: {}",
            request.type(),
            request.businessKey(),
            e.getMessage());
      }
    } else {
      log.info(
          "Demo {} {}: {} {} ({}) after {} submit(s)",
          request.type(),
          request.businessKey(),
          view.status(),
          view.errorCode(),
          view.errorClass(),
          view.submits());
    }
  }
}

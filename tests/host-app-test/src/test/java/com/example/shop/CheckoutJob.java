package com.example.shop;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.model.ClaimedToken;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jobrunr.jobs.lambdas.JobRequest;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.springframework.stereotype.Component;

/** The shop's own job holding a browser session: it needs the token inside the job. */
@Component
public class CheckoutJob implements JobRequestHandler<CheckoutJob.Request> {

  /** Token lengths per order, as the "browser" would have used them (tests read it). */
  public static final Map<String, Integer> USED = new ConcurrentHashMap<>();

  public record Request(String orderId, String pageUrl) implements JobRequest {
    @Override
    public Class<CheckoutJob> getJobRequestHandler() {
      return CheckoutJob.class;
    }
  }

  private final Solves solves;

  public CheckoutJob(Solves solves) {
    this.solves = solves;
  }

  @Override
  public void run(Request request) throws Exception {
    ClaimedToken token =
        solves.solveNow(
            SolveRequest.turnstile(
                "checkout-" + request.orderId(), "0x4AAAAAAADnPIDROrmt1Wwj", request.pageUrl()),
            Duration.ofSeconds(60));
    USED.put(request.orderId(), token.token().length());
  }
}

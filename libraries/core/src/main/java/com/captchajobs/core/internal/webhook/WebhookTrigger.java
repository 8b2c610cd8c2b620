package com.captchajobs.core.internal.webhook;

import static org.jobrunr.scheduling.JobBuilder.aJob;

import com.captchajobs.core.internal.lanes.ClientLanes;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the webhook job of a solve that has a callback URL when it reaches an outcome (SOLVED or
 * FAILED). Every worker node listens and creates it; the job id is derived from the solve and the
 * outcome, so all but the first create are no-ops.
 */
public final class WebhookTrigger implements SolveNotifications.Listener {

  /** The outcomes a caller is told about; CLAIMED and EXPIRED follow from its own actions. */
  public static final Set<SolveStatus> OUTCOMES = Set.of(SolveStatus.SOLVED, SolveStatus.FAILED);

  /** How far back a reconnect looks for outcomes whose notification may have been missed. */
  static final Duration CATCH_UP = Duration.ofMinutes(10);

  private static final Logger log = LoggerFactory.getLogger(WebhookTrigger.class);

  private final SolveRepository repository;
  private final JobRequestScheduler scheduler;
  private final int retries;
  private final Clock clock;
  private final Runnable created;

  /**
   * @param created told after a delivery job was created, so that this node fetches it at once
   */
  public WebhookTrigger(
      SolveRepository repository,
      JobRequestScheduler scheduler,
      int retries,
      Clock clock,
      Runnable created) {
    this.repository = repository;
    this.scheduler = scheduler;
    this.retries = retries;
    this.clock = clock;
    this.created = created;
  }

  public static UUID jobId(UUID solveId, SolveStatus status) {
    return SolveJobs.jobId(solveId, "webhook:" + status);
  }

  @Override
  public void onStatus(UUID id, SolveStatus status) {
    if (OUTCOMES.contains(status)) {
      repository.find(id).filter(s -> s.callbackUrl() != null).ifPresent(s -> create(s, status));
    }
  }

  @Override
  public void onReconnect() {
    for (UUID id : recentOutcomesWithCallback()) {
      repository
          .find(id)
          .ifPresent(
              s -> {
                // A SOLVED row that was claimed meanwhile still had a SOLVED outcome to report.
                SolveStatus outcome =
                    s.status() == SolveStatus.FAILED ? SolveStatus.FAILED : SolveStatus.SOLVED;
                create(s, outcome);
              });
    }
  }

  void create(Solve solve, SolveStatus status) {
    String client = repository.clientOf(solve.id()).orElse(SolveRepository.JAVA_API_CLIENT);
    scheduler.create(
        aJob()
            .withId(jobId(solve.id(), status))
            .withName("Webhook " + status + " " + solve.type() + " " + solve.businessKey())
            .withLabels("webhook", solve.type().name(), ClientLanes.label(client))
            .withAmountOfRetries(retries)
            .withJobRequest(new WebhookJobRequest(solve.id(), status)));
    created.run();
    log.debug("Webhook job for solve {} ({}) created", solve.id(), status);
  }

  private List<UUID> recentOutcomesWithCallback() {
    try {
      return repository.outcomesWithCallbackSince(clock.instant().minus(CATCH_UP));
    } catch (RuntimeException e) {
      log.warn("Could not look for missed webhook outcomes: {}", e.getMessage());
      return List.of();
    }
  }
}

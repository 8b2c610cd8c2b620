package com.captchajobs.core;

import com.captchajobs.core.client.InvalidTaskException;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.enqueue.AnswerReports;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.notify.Subscription;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveReports;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.ClaimedToken;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The enqueue side of CaptchaJobs for Java callers: store a solve and return at once, read its
 * status, wait for it on any node, take its token once, and report what the target site made of it.
 *
 * <pre>{@code
 * UUID id = solves.enqueue(SolveRequest.recaptchaV2("signup-17", sitekey, pageUrl));
 * // later, or elsewhere:
 * solves.await(id, Duration.ofMinutes(3))
 *     .thenAccept(view -> { if (view.status() == SolveStatus.SOLVED) use(solves.claim(id)); });
 * }</pre>
 *
 * A worker node anywhere on the same database does the solving; {@link #await} completes through
 * PostgreSQL LISTEN/NOTIFY, so no caller polls. Plain Java: the Spring wiring is in {@code
 * com.captchajobs.spring.boot}.
 */
public final class Solves {

  private final SolveEnqueuer enqueuer;
  private final SolveRepository repository;
  private final SolveNotifications notifications;
  private final Clock clock;
  private final EngineListener events;
  private final OperatorQueries operatorQueries;
  private final AnswerReports reports;
  private final String client;
  private final boolean trusted;

  /** Built by {@link CaptchaJobs}; {@code events} receives {@code claimed} (solved → claimed). */
  Solves(
      SolveEnqueuer enqueuer,
      SolveRepository repository,
      SolveNotifications notifications,
      Clock clock,
      EngineListener events,
      OperatorQueries operatorQueries,
      AnswerReports reports) {
    this.operatorQueries = operatorQueries;
    this.reports = reports;
    this.enqueuer = enqueuer;
    this.repository = repository;
    this.notifications = notifications;
    this.clock = clock;
    this.events = events;
    this.client = SolveRepository.JAVA_API_CLIENT;
    this.trusted = true;
  }

  /** The same parts, acting for an untrusted API client. */
  private Solves(Solves parts, String client) {
    this.operatorQueries = parts.operatorQueries;
    this.reports = parts.reports;
    this.enqueuer = parts.enqueuer;
    this.repository = parts.repository;
    this.notifications = parts.notifications;
    this.clock = parts.clock;
    this.events = parts.events;
    this.client = client;
    this.trusted = false;
  }

  /**
   * The solves of one API client (the REST API calls it with the authenticated client's name).
   * Solves enqueued through it belong to that client and its business keys are its own; every
   * method by id answers {@link SolveNotFoundException} (empty for {@link #find}) for another
   * client's solve, exactly as for an unknown id. This instance itself is the Java API client
   * {@value SolveRepository#JAVA_API_CLIENT}: a trusted client that enqueues under its own keys and
   * may read any solve by id.
   *
   * @throws IllegalArgumentException when the name is blank, longer than 100 characters or reserved
   *     for the Java API
   */
  public Solves asClient(String clientName) {
    if (clientName == null
        || clientName.isBlank()
        || clientName.length() > 100
        || clientName.equals(SolveRepository.JAVA_API_CLIENT)) {
      throw new IllegalArgumentException(
          "client name must be 1 to 100 characters and not " + SolveRepository.JAVA_API_CLIENT);
    }
    return new Solves(this, clientName);
  }

  /** The client this instance acts for. */
  public String client() {
    return client;
  }

  /** The client's solves not yet final, for a cap on them. */
  public int unfinished() {
    return repository.countUnfinished(client);
  }

  private Optional<Solve> row(UUID id) {
    return trusted ? repository.find(id) : repository.findOwned(id, client);
  }

  /** The outcome of {@link #accept}: the solve, its status now, and whether this call stored it. */
  public record Accepted(UUID id, SolveStatus status, boolean created) {}

  /**
   * Stores the solve and creates its submit job; returns its id at once.
   *
   * @throws SolveConflictException when the business key exists with another payload
   */
  public UUID enqueue(SolveRequest request) {
    return accept(request).id();
  }

  /** {@link #enqueue}, telling a new solve from an existing one with the same key and payload. */
  public Accepted accept(SolveRequest request) {
    return accept(request, 0).orElseThrow();
  }

  /**
   * {@link #accept(SolveRequest)} under a cap on this client's unfinished solves (queued, waiting
   * or submitted): empty, with nothing stored, when the client already has {@code maxUnfinished} of
   * them. The count and the insert are one step under a lock per client, so the cap holds exactly
   * however many enqueues of the client run at once, on however many nodes. The same key and
   * payload again still answers the existing solve at the cap. 0 means no cap.
   *
   * @throws SolveConflictException when the business key exists with another payload
   */
  public Optional<Accepted> accept(SolveRequest request, int maxUnfinished) {
    if (maxUnfinished < 0) {
      throw new IllegalArgumentException("maxUnfinished must be 0 (no cap) or more");
    }
    Optional<SolveEnqueuer.Enqueued> stored;
    try {
      stored =
          enqueuer.enqueue(
              client,
              request.businessKey(),
              request.type(),
              request.params(),
              request.priority(),
              request.callbackUrl(),
              maxUnfinished);
    } catch (InvalidTaskException ex) {
      // Only reachable when the engine checks more than SolveRequest does; nothing was stored.
      throw new InvalidSolveRequestException(ex.field(), ex.problem());
    } catch (SolveEnqueuer.ConflictException ex) {
      throw new SolveConflictException(request.businessKey(), ex.existingId());
    }
    return stored.map(
        e -> {
          if (e.created() && request.batch() != null) {
            operatorQueries.label(e.id(), request.batch());
          }
          SolveStatus status =
              !e.created()
                  ? row(e.id()).map(Solve::status).orElse(SolveStatus.QUEUED)
                  : e.parked() ? SolveStatus.WAITING_FOR_THREAD : SolveStatus.QUEUED;
          return new Accepted(e.id(), status, e.created());
        });
  }

  /** The solve's current state, never its token. */
  public Optional<SolveStatusView> find(UUID id) {
    return row(id).map(Solve::view);
  }

  /**
   * @throws SolveNotFoundException when no solve has this id
   */
  public SolveStatusView status(UUID id) {
    return find(id).orElseThrow(() -> new SolveNotFoundException(id));
  }

  /**
   * Completes when the solve reaches a final status (SOLVED, CLAIMED, EXPIRED or FAILED), wherever
   * the worker runs; exceptionally with {@link SolveTimeoutException} after {@code timeout}, or
   * {@link SolveNotFoundException}. A FAILED solve completes normally: read its status. Dependent
   * stages run on the common pool, not on the notification thread.
   */
  public CompletableFuture<SolveStatusView> await(UUID id, Duration timeout) {
    CompletableFuture<SolveStatusView> result = new CompletableFuture<>();
    Subscription subscription =
        notifications.subscribe(
            id,
            status -> {
              if (status.isFinal()) {
                CompletableFuture.runAsync(() -> completeFromRow(id, result));
              }
            });
    result.whenComplete((view, error) -> subscription.close());
    CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .execute(() -> result.completeExceptionally(new SolveTimeoutException(id, timeout)));
    // A change committed before the subscription was not notified to it: read the row once now.
    completeFromRow(id, result);
    return result;
  }

  private void completeFromRow(UUID id, CompletableFuture<SolveStatusView> result) {
    if (result.isDone()) {
      return;
    }
    try {
      Optional<Solve> row = row(id);
      if (row.isEmpty()) {
        result.completeExceptionally(new SolveNotFoundException(id));
      } else if (row.get().status().isFinal()) {
        result.complete(row.get().view());
      }
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
    }
  }

  /**
   * Hands the token out exactly once, never after its expiry.
   *
   * @throws TokenNotReadyException not solved yet
   * @throws TokenAlreadyClaimedException claimed before
   * @throws TokenExpiredException expired unclaimed
   * @throws SolveFailedException the solve failed
   * @throws SolveNotFoundException unknown id
   */
  public ClaimedToken claim(UUID id) {
    if (!trusted && row(id).isEmpty()) {
      throw new SolveNotFoundException(id);
    }
    Instant now = clock.instant();
    Optional<SolveRepository.Claim> claimed = repository.claim(id);
    if (claimed.isPresent()) {
      SolveRepository.Claim c = claimed.get();
      if (c.solvedAt() != null) {
        events.claimed(c.type(), Duration.between(c.solvedAt(), now));
      }
      return c.claimed();
    }
    Solve s = row(id).orElseThrow(() -> new SolveNotFoundException(id));
    throw switch (s.status()) {
      case CLAIMED -> new TokenAlreadyClaimedException(id);
      case EXPIRED -> new TokenExpiredException(id, s.expiresAt());
      case FAILED -> new SolveFailedException(id, s.errorCode(), s.errorClass());
      // SOLVED but not claimable: past expires_at on the database clock (the repair pass has not
      // marked it yet); a concurrent claim that won would show CLAIMED here.
      case SOLVED -> new TokenExpiredException(id, s.expiresAt());
      default -> new TokenNotReadyException(id, s.status());
    };
  }

  /**
   * Reports what the target site made of the solve's answer: {@link Verdict#BAD} when it rejected
   * the token, {@link Verdict#GOOD} when it accepted it. Accepted once per solve, after its token
   * was claimed and within the report window after the claim ({@code
   * CaptchaJobs.Builder#reportWindow}, 10 minutes by default). The report is recorded at once and
   * reaches the provider ({@code res.php action=reportbad} or {@code reportgood} with the solve's
   * task id) from a worker node shortly after, at most once; {@link SolveStatusView#report()} shows
   * it and its delivery.
   *
   * @throws InvalidSolveRequestException naming {@code verdict} when it is null
   * @throws SolveNotFoundException unknown id, or another client's solve
   * @throws ReportNotAcceptedException not claimed, reported before, or past the window
   */
  public void report(UUID id, Verdict verdict) {
    if (verdict == null) {
      throw new InvalidSolveRequestException("verdict", "is required (BAD or GOOD)");
    }
    SolveReports.Recorded recorded =
        reports
            .report(id, trusted ? null : client, verdict)
            .orElseThrow(() -> new SolveNotFoundException(id));
    if (recorded.refusal() != null) {
      throw new ReportNotAcceptedException(id, recorded.refusal());
    }
    events.reported(recorded.type(), verdict);
  }

  /**
   * Solves inside the caller's own JobRunr job, for session-bound flows (a browser or cookie
   * session that must use the token): enqueues (idempotent by business key, so a rerun of the
   * caller's job resumes the same solve instead of submitting again), blocks this thread until the
   * solve is final, then claims the token. The solve goes through the same row, fleet gate and
   * resume rules as any other. Never call it on a request thread.
   *
   * @throws SolveFailedException with the error code and class when the solve failed
   * @throws SolveTimeoutException when it is not final within {@code timeout}
   * @throws TokenAlreadyClaimedException when an earlier run of the caller's job took the token
   * @throws TokenExpiredException when the token expired before this call could claim it
   */
  public ClaimedToken solveNow(SolveRequest request, Duration timeout) throws InterruptedException {
    UUID id = enqueue(request);
    SolveStatusView view;
    try {
      view = await(id, timeout).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SolveException se) {
        throw se;
      }
      throw new IllegalStateException("waiting for solve " + id + " failed", e.getCause());
    }
    if (view.status() == SolveStatus.FAILED) {
      throw new SolveFailedException(id, view.errorCode(), view.errorClass());
    }
    return claim(id);
  }

  /**
   * Calls {@code onChange} with each status notified for the solve until the handle is closed (on
   * the notification thread: hand heavy work off). Read the row after subscribing, as {@link
   * #await} does, to close the race with a change committed just before.
   */
  public AutoCloseable watch(UUID id, Consumer<SolveStatus> onChange) {
    if (!trusted && row(id).isEmpty()) {
      throw new SolveNotFoundException(id);
    }
    return notifications.subscribe(id, onChange::accept);
  }
}

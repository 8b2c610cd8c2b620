package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.InvalidSolveRequestException;
import com.captchajobs.core.ReportNotAcceptedException;
import com.captchajobs.core.SolveNotFoundException;
import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.client.CaptchaAiApiException;
import com.captchajobs.core.client.CaptchaAiTransportException;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.upkeep.ReportSweep;
import com.captchajobs.core.model.ReportDelivery;
import com.captchajobs.core.model.ReportRefusal;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.ReportRecord;
import com.captchajobs.simulator.RequestRecord;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reports on an answer ({@code Solves.report}) and the report job that takes them to the provider.
 * A report is accepted once, after the claim, by the solve's owner, within the window; it reaches
 * the provider exactly once, judged from the simulator's records, and a rerun never sends it again.
 */
class ReportJobTest {

  static final String KEY = "reportKeyREPORTkeyREPORTkeyREP12";

  static CaptchaAiSimulator sim;
  static EngineNode node;
  static Solves solves;
  static SolveProbe probe;
  static final Map<String, UUID> solved = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 10)
            .solveTime("turnstile", Duration.ofMillis(100), Duration.ofMillis(200))
            .build()
            .start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchaai.provider-check-interval", "1h",
                "captchaai.first-poll-wait.TURNSTILE", "5s",
                // The node's own report sweep runs every reconcile interval (2 s by default): the
                // sweep tests backdate a PENDING report and then sweep themselves, expecting their
                // pass to create its job. The node's pass could get there first on a loaded
                // machine (their sweep then created nothing), so it does not run during the tests.
                "captchaai.reconcile-interval", "1h"));
    solves = node.captchaJobs().solves();
    probe = node.probe();
    // Every solve the tests report on, solved once up front (the first poll comes after 5 s).
    for (String key :
        List.of(
            "once",
            "unclaimed",
            "window",
            "rerun",
            "crashed",
            "transient",
            "reset",
            "ok-good",
            "orphan",
            "lost",
            "stranded")) {
      solved.put(key, solves.enqueue(turnstile(key)));
    }
    solved.put("alice", solves.asClient("alice").enqueue(turnstile("alice")));
    solved
        .values()
        .forEach(
            id ->
                await()
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> solves.status(id).status() == SolveStatus.SOLVED));
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  private static SolveRequest turnstile(String key) {
    return SolveRequest.turnstile("report-" + key, "0x4AAAAAAAreport", SolveProbe.pageUrl(key));
  }

  private static long taskOf(UUID id) {
    return Long.parseLong(probe.get(id).taskId());
  }

  private static SolveStatusView.Report awaitDelivery(UUID id, ReportDelivery delivery) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                solves.status(id).report() != null
                    && solves.status(id).report().delivery() == delivery);
    return solves.status(id).report();
  }

  @Test
  void aReportAfterTheClaimReachesTheProviderAsExactlyOneReportbadAndASecondIsRefused() {
    UUID id = solved.get("once");
    solves.claim(id);

    solves.report(id, Verdict.BAD);

    SolveStatusView.Report report = awaitDelivery(id, ReportDelivery.SENT);
    assertThat(report.verdict()).isEqualTo(Verdict.BAD);
    assertThat(report.reportedAt()).isNotNull();
    assertThat(report.deliveredAt()).isAfterOrEqualTo(report.reportedAt());
    assertThat(sim.reports(taskOf(id)))
        .extracting(ReportRecord::action)
        .containsExactly(ReportRecord.BAD);
    assertThatThrownBy(() -> solves.report(id, Verdict.GOOD))
        .isInstanceOfSatisfying(
            ReportNotAcceptedException.class,
            e -> assertThat(e.reason()).isEqualTo(ReportRefusal.ALREADY_REPORTED));
    assertThat(solves.status(id).report().verdict()).isEqualTo(Verdict.BAD);
    assertThat(sim.reports(taskOf(id))).hasSize(1);
  }

  @Test
  void aGoodAnswerIsReportedAsReportgood() {
    UUID id = solved.get("ok-good");
    solves.claim(id);
    solves.report(id, Verdict.GOOD);
    awaitDelivery(id, ReportDelivery.SENT);
    assertThat(sim.reports(taskOf(id)))
        .extracting(ReportRecord::action)
        .containsExactly(ReportRecord.GOOD);
  }

  @Test
  void anUnclaimedAnUnknownAndAnotherClientsSolveAndAMissingVerdictAreRefusedWithNothingStored() {
    UUID unclaimed = solved.get("unclaimed");
    assertThatThrownBy(() -> solves.report(unclaimed, Verdict.BAD))
        .isInstanceOfSatisfying(
            ReportNotAcceptedException.class,
            e -> assertThat(e.reason()).isEqualTo(ReportRefusal.NOT_CLAIMED));
    assertThatThrownBy(() -> solves.report(UUID.randomUUID(), Verdict.BAD))
        .isInstanceOf(SolveNotFoundException.class);

    UUID alices = solved.get("alice");
    solves.asClient("alice").claim(alices);
    assertThatThrownBy(() -> solves.asClient("bob").report(alices, Verdict.BAD))
        .isInstanceOf(SolveNotFoundException.class);
    assertThatThrownBy(() -> solves.asClient("alice").report(alices, null))
        .isInstanceOfSatisfying(
            InvalidSolveRequestException.class, e -> assertThat(e.field()).isEqualTo("verdict"));

    assertThat(solves.status(unclaimed).report()).isNull();
    assertThat(solves.status(alices).report()).isNull();
    assertThat(sim.reports(taskOf(unclaimed))).isEmpty();
    assertThat(sim.reports(taskOf(alices))).isEmpty();

    solves.asClient("alice").report(alices, Verdict.BAD); // the owner may
    awaitDelivery(alices, ReportDelivery.SENT);
    assertThat(sim.reports(taskOf(alices))).hasSize(1);
  }

  @Test
  void aReportPastTheWindowAfterTheClaimIsRefused() {
    UUID id = solved.get("window");
    solves.claim(id);
    probe
        .jdbc()
        .update(
            "UPDATE captchajobs.solve SET claimed_at = now() - interval '10 minutes 1 second'"
                + " WHERE id = ?",
            id);
    assertThatThrownBy(() -> solves.report(id, Verdict.BAD))
        .isInstanceOfSatisfying(
            ReportNotAcceptedException.class,
            e -> assertThat(e.reason()).isEqualTo(ReportRefusal.WINDOW_PASSED));
    assertThat(solves.status(id).report()).isNull();
  }

  @Test
  void aRerunOfTheReportJobNeverSendsTheReportTwice() {
    UUID id = solved.get("rerun");
    solves.claim(id);
    solves.report(id, Verdict.BAD);
    awaitDelivery(id, ReportDelivery.SENT);

    node.part(ReportJob.class).run(new ReportJobRequest(id));
    node.part(ReportJob.class).run(new ReportJobRequest(id));

    assertThat(sim.reports(taskOf(id))).hasSize(1);
    assertThat(solves.status(id).report().delivery()).isEqualTo(ReportDelivery.SENT);
  }

  @Test
  void aRunThatDiedWhileSendingLeavesTheReportUncertainAndTheNextRunSendsNothing() {
    UUID id = solved.get("crashed");
    solves.claim(id);
    // A report a run took (SENDING) and died with, before or after its call: what the row shows
    // then. Recorded straight in the row, so that no job of ours runs meanwhile.
    probe
        .jdbc()
        .update(
            "UPDATE captchajobs.solve SET report_verdict = 'BAD', reported_at = now(),"
                + " report_delivery = 'SENDING' WHERE id = ?",
            id);

    node.part(ReportJob.class).run(new ReportJobRequest(id));

    SolveStatusView.Report report = solves.status(id).report();
    assertThat(report.delivery()).isEqualTo(ReportDelivery.UNCERTAIN);
    assertThat(report.error()).isEqualTo("INTERRUPTED");
    assertThat(sim.reports(taskOf(id))).isEmpty();
    assertThat(sim.requests())
        .noneMatch(r -> r.taskId() == taskOf(id) && "reportbad".equals(r.action()));
  }

  @Test
  void aReportRecordedByANodeThatDiedBeforeCreatingItsJobIsSentOnceByTheSweep() {
    UUID id = solved.get("orphan");
    solves.claim(id);
    // What a node that died between recording the report and creating its job leaves: a PENDING
    // row, recorded two minutes ago, and no job.
    probe
        .jdbc()
        .update(
            "UPDATE captchajobs.solve SET report_verdict = 'BAD',"
                + " reported_at = now() - interval '2 minutes', report_delivery = 'PENDING'"
                + " WHERE id = ?",
            id);
    ReportSweep sweep = node.part(ReportSweep.class);

    assertThat(sweep.sweep().jobsCreated()).isEqualTo(1);
    awaitDelivery(id, ReportDelivery.SENT);
    assertThat(sweep.sweep()).isEqualTo(new ReportSweep.Swept(0, 0));

    assertThat(sim.reports(taskOf(id))).hasSize(1);
    assertThat(
            sim.requests().stream()
                .filter(r -> r.taskId() == taskOf(id) && "reportbad".equals(r.action())))
        .hasSize(1);
  }

  @Test
  void aTransientProviderErrorIsRetriedAndTheReportStillReachesTheProviderOnce() {
    UUID id = solved.get("transient");
    solves.claim(id);
    sim.injectNext(Endpoint.RES, Fault.SERVER_ERROR);

    solves.report(id, Verdict.BAD);

    SolveStatusView.Report report = awaitDelivery(id, ReportDelivery.SENT);
    assertThat(report.error()).isNull();
    List<RequestRecord> calls =
        sim.requests().stream()
            .filter(r -> r.taskId() == taskOf(id) && "reportbad".equals(r.action()))
            .toList();
    assertThat(calls).extracting(RequestRecord::fault).containsExactly("SERVER_ERROR", null);
    assertThat(sim.reports(taskOf(id))).hasSize(1);
  }

  @Test
  void aReportTheProviderRecordedBeforeAGateways502IsNeverSentAgainAndEndsUncertain() {
    UUID id = solved.get("lost");
    solves.claim(id);
    sim.reportAnswersLost(true);
    try {
      solves.report(id, Verdict.BAD);

      SolveStatusView.Report report = awaitDelivery(id, ReportDelivery.UNCERTAIN);
      assertThat(report.error()).isEqualTo("HTTP_502");
      assertThat(report.deliveredAt()).isNotNull();
    } finally {
      sim.reportAnswersLost(false);
    }
    assertThat(sim.reports(taskOf(id))).as("recorded by the provider once").hasSize(1);
    assertThat(
            sim.requests().stream()
                .filter(r -> r.taskId() == taskOf(id) && "reportbad".equals(r.action())))
        .extracting(RequestRecord::fault)
        .containsExactly("LOST_RESPONSE");
    // UNCERTAIN is final: a rerun of the job (JobRunr's retry, a second node) sends nothing
    node.part(ReportJob.class).run(new ReportJobRequest(id));
    assertThat(sim.reports(taskOf(id))).hasSize(1);
  }

  @Test
  void aReportRecordedAgainBehindAJobThatFinishedWithoutItIsSentOnceByTheSweep() {
    UUID id = solved.get("stranded");
    solves.claim(id);
    // A report recorded, its job committed, then an error: AnswerReports undid the record, and the
    // job ran with nothing to send and SUCCEEDED. What that leaves, with our own parts:
    UUID jobId =
        node.part(SolveJobs.class)
            .report(
                id,
                com.captchajobs.core.client.CaptchaType.TURNSTILE,
                "report-stranded",
                "reportbad");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                probe
                    .jdbc()
                    .queryForList(
                        "SELECT state FROM captchajobs.cj_jobrunr_jobs WHERE id = ?",
                        String.class,
                        jobId.toString())
                    .contains("SUCCEEDED"));
    // The client reports again: recorded, and JobRunr skips the job of the same id.
    solves.report(id, Verdict.BAD);
    probe
        .jdbc()
        .update(
            "UPDATE captchajobs.solve SET reported_at = now() - interval '2 minutes' WHERE id = ?",
            id);
    assertThat(solves.status(id).report().delivery()).isEqualTo(ReportDelivery.PENDING);
    assertThat(sim.reports(taskOf(id))).isEmpty();

    assertThat(node.part(ReportSweep.class).sweep().jobsCreated()).isEqualTo(1);

    awaitDelivery(id, ReportDelivery.SENT);
    assertThat(sim.reports(taskOf(id))).hasSize(1);
  }

  @Test
  void aCallCutAfterItWentOutIsNotRepeatedAndTheReportEndsUncertain() {
    UUID id = solved.get("reset");
    solves.claim(id);
    sim.injectNext(Endpoint.RES, Fault.RESET);

    solves.report(id, Verdict.BAD);

    SolveStatusView.Report report = awaitDelivery(id, ReportDelivery.UNCERTAIN);
    assertThat(report.error()).isEqualTo("NETWORK");
    assertThat(report.deliveredAt()).isNotNull();
    assertThat(
            sim.requests().stream()
                .filter(r -> r.taskId() == taskOf(id) && "reportbad".equals(r.action())))
        .extracting(RequestRecord::fault)
        .containsExactly("RESET");
  }

  @Test
  void onlyAnAnswerThatSaysTheCallDidNotCountOrAConnectionNeverMadeIsRetried() {
    assertThat(ReportJob.neverCounted(new CaptchaAiApiException("ERROR_SERVER_ERROR", "1")))
        .isTrue();
    assertThat(ReportJob.neverCounted(new CaptchaAiApiException("ERROR_TOO_MUCH_REQUESTS", "1")))
        .isTrue();
    assertThat(ReportJob.neverCounted(new CaptchaAiApiException("ERROR_WRONG_CAPTCHA_ID", "1")))
        .isFalse();
    assertThat(ReportJob.neverCounted(transport("HTTP_429", null))).isTrue();
    assertThat(ReportJob.neverCounted(transport("HTTP_403", null))).isTrue();
    assertThat(ReportJob.neverCounted(transport("HTTP_502", null))).isFalse();
    assertThat(ReportJob.neverCounted(transport("HTTP_504", null))).isFalse();
    assertThat(ReportJob.neverCounted(transport("HTTP_500", null))).isFalse();
    assertThat(ReportJob.neverCounted(transport("EMPTY_BODY", null))).isFalse();
    assertThat(ReportJob.neverCounted(transport("UNRECOGNISED_BODY", null))).isFalse();
    assertThat(ReportJob.neverCounted(transport("NETWORK", new ConnectException("refused"))))
        .isTrue();
    assertThat(ReportJob.neverCounted(transport("NETWORK", new SocketException("reset"))))
        .isFalse();
    assertThat(ReportJob.neverCounted(transport("TIMEOUT", new SocketTimeoutException("read"))))
        .isFalse();
  }

  private static CaptchaAiTransportException transport(String code, Throwable cause) {
    return new CaptchaAiTransportException(code, "1", null, cause);
  }
}

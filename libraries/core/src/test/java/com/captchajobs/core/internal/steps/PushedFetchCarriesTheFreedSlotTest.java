package com.captchajobs.core.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.internal.push.PushedFetches;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fetch a push rang for that finds the answer frees the solve's slot; when a solve waits for
 * one, the fetch's job submits it in its own thread, as a poll job does, instead of leaving it to a
 * submit job that a node must first fetch (on a busy node, the seconds a paid thread idles). One
 * slot, two solves, over sockets on real PostgreSQL and JobRunr; the second solve's way to in.php
 * is read from JobRunr's job rows. The worker's own executor of pushed fetches ({@link
 * PushedFetches}) is stopped: this is the fetch's job, the durable path.
 */
class PushedFetchCarriesTheFreedSlotTest {

  static final String KEY = "carryPushKeyCARRYPUSHkeyCARRY123";
  static final String SECRET = "pingback-secret-of-the-carry-fleet-0123456789";

  static CaptchaAiSimulator sim;
  static HttpServer receiver;
  static EngineNode node;
  static SolveProbe solves;
  static volatile Pingbacks pingbacks;

  @BeforeAll
  static void start() throws IOException {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("turnstile", Duration.ofSeconds(1), Duration.ofSeconds(2))
            .build()
            .start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    receiver.createContext(Pingbacks.PATH + "/", PushedFetchCarriesTheFreedSlotTest::receive);
    receiver.start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchaai.threads",
                "1",
                "captchaai.pingback-url",
                "http://127.0.0.1:" + receiver.getAddress().getPort() + Pingbacks.PATH,
                "captchaai.pingback-secret",
                SECRET,
                // the fallback poll a minute after submit: the answers come by push
                "captchaai.first-poll-wait.TURNSTILE",
                "60s",
                "captchaai.provider-check-interval",
                "1h",
                // The repair pass hands free slots on too, each with a submit job: one that ran
                // between the fetch freeing the first solve's slot and taking it for the second
                // would give the second a job (correct, but not the hand-off under test; it
                // failed a verify so, as SlotHandoffTest once did).
                "captchaai.reconcile-interval",
                "1h"));
    pingbacks = node.part(Pingbacks.class);
    solves = node.probe();
    // the fetch is left to its job, the path under test: the worker's own executor would
    // otherwise make it first and carry the freed slot's in.php itself (SolveLifeTest)
    node.part(PushedFetches.class).close();
  }

  @AfterAll
  static void stop() {
    node.close();
    receiver.stop(0);
    sim.close();
  }

  @Test
  void aPushedFetchThatFindsTheAnswerSubmitsTheSolveWaitingForItsSlotInItsOwnThread() {
    UUID first = solves.turnstile("carry-first");
    solves.awaitStatus(first, SolveStatus.SUBMITTED);
    UUID second = solves.turnstile("carry-second");
    solves.awaitStatus(second, SolveStatus.WAITING_FOR_THREAD);

    solves.awaitStatus(first, SolveStatus.SOLVED, Duration.ofSeconds(30));
    solves.awaitStatus(second, SolveStatus.SOLVED, Duration.ofSeconds(30));

    assertThat(submitJobsOf("carry-second"))
        .as("submit jobs of the solve that waited (the old code: the hand-off's)")
        .isZero();
    assertThat(
            solves
                .jdbc()
                .queryForObject(
                    "SELECT count(*)::int FROM captchajobs.solve WHERE submits = 1", Integer.class))
        .isEqualTo(2);
  }

  private static int submitJobsOf(String businessKey) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT count(*)::int FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?",
            Integer.class,
            "%\"Submit TURNSTILE " + businessKey + "\"%");
  }

  private static void receive(HttpExchange exchange) throws IOException {
    String[] parts =
        exchange.getRequestURI().getPath().substring(Pingbacks.PATH.length() + 1).split("/");
    int status = 404;
    Pingbacks target = pingbacks;
    if (parts.length == 3 && target != null) {
      status =
          target.receive(parts[0], parts[1], parts[2]) == Pingbacks.PushResult.REFUSED ? 404 : 200;
    }
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }
}

package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.TokenAlreadyClaimedException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.model.ClaimedToken;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerProcess;
import com.example.hostcontract.Hosts;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An existing app with the library and a datasource, no worker of its own, beside a separate worker
 * node on the same database: the README's sample.
 */
class ExistingAppTest {

  static final String KEY = "existingKeyEXISTINGkey0123456789";

  static CaptchaAiSimulator sim;
  static WorkerProcess worker;
  static ConfigurableApplicationContext shop;
  static Solves solves;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    String db = EmbeddedPostgresSupport.newDatabase();
    shop =
        new SpringApplicationBuilder(ShopApplication.class)
            .properties(
                Map.of(
                    "spring.datasource.url", db,
                    "server.port", "0",
                    "captchajobs.worker.enabled", "false"))
            .run();
    worker =
        WorkerProcess.startJar(
                Hosts.WORKER_JAR,
                "existing-app-worker",
                db,
                sim.baseUrl(),
                KEY,
                Map.of("captchaai.first-poll-wait.TURNSTILE", "1s"))
            .awaitUp();
    solves = shop.getBean(Solves.class);
  }

  @AfterAll
  static void stop() {
    shop.close();
    worker.close();
    sim.close();
  }

  @Test
  void anExistingAppWithoutTheDashboardCarriesNoClassOfTheConsole() {
    Hosts.assertNoConsoleClassIsOnTheClassPath(shop);
  }

  @Test
  void anExistingAppThatEnablesTheDashboardWithoutCaptchajobsConsoleIsRefusedNamingBoth() {
    assertThatThrownBy(
            () ->
                new SpringApplicationBuilder(ShopApplication.class)
                    .properties(
                        Map.of(
                            "spring.datasource.url", EmbeddedPostgresSupport.newDatabase(),
                            "server.port", "0",
                            "captchajobs.worker.enabled", "false",
                            "captchajobs.dashboard.enabled", "true",
                            "captchajobs.dashboard.port", "0",
                            "captchajobs.dashboard.username", "ops",
                            "captchajobs.dashboard.password", "dashboard-password-0123"))
                    .run()
                    .close())
        .rootCause()
        .hasMessage(
            "the dashboard (captchajobs.dashboard.enabled) is served by"
                + " com.captchajobs:captchajobs-console, which is not on the class path: add it"
                + " (captchajobs-bom pins its version) or leave the dashboard off");
  }

  @Test
  void anExistingAppGetsASolvesBeanButNoWorkerAndNoRestApi() {
    assertThat(shop.getBeansOfType(org.jobrunr.server.BackgroundJobServer.class)).isEmpty();
    assertThat(shop.containsBean("captchaJobsBearerTokenFilter")).isFalse();
  }

  @Test
  void awaitCompletesOnTheAppNodeWithinASecondOfTheWorkerStoringTheToken() throws Exception {
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile(
                "existing-await",
                "0x4AAAAAAADnPIDROrmt1Wwj",
                "https://shop.example.test/existing-await"));
    CompletableFuture<SolveStatusView> done = solves.await(id, Duration.ofSeconds(60));
    Instant[] completedAt = new Instant[1];
    done.thenRun(() -> completedAt[0] = Instant.now());

    await().atMost(Duration.ofSeconds(60)).until(done::isDone);
    SolveStatusView view = done.get();
    assertThat(view.status()).isEqualTo(SolveStatus.SOLVED);
    await().atMost(Duration.ofSeconds(1)).until(() -> completedAt[0] != null);
    assertThat(Duration.between(view.solvedAt(), completedAt[0])).isLessThan(Duration.ofSeconds(1));

    ClaimedToken token = solves.claim(id);
    assertThat(token.token()).isNotBlank();
    assertThat(token.toString()).doesNotContain(token.token());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> solves.claim(id))
        .isInstanceOf(TokenAlreadyClaimedException.class);
  }

  @Test
  void awaitOnASolveThatIsAlreadyFinalCompletesAtOnce() throws Exception {
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile(
                "existing-done", "invalid", "https://shop.example.test/existing-done"));
    await().atMost(Duration.ofSeconds(60)).until(() -> solves.status(id).isFinal());

    SolveStatusView view = solves.await(id, Duration.ofSeconds(1)).get();
    assertThat(view.status()).isEqualTo(SolveStatus.FAILED);
    assertThat(view.errorCode()).isEqualTo("ERROR_BAD_TOKEN_OR_PAGEURL");
    assertThat(view.errorClass()).isEqualTo(ErrorClass.REQUEST);
  }
}

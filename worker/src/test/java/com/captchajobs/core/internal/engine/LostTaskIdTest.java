package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveState;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.Solves;
import com.captchajobs.worker.testing.WorkerNode;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * In.php answered, then the task id could not be stored (the database refuses it: a trigger stands
 * in for a pool timeout or a dropped connection). The engine treats it as a lost reply.
 */
@ExtendWith(OutputCaptureExtension.class)
class LostTaskIdTest {

  static final String KEY = "lostIdKeyLOSTIDkeyLOSTIDkey12345";
  static final Duration HOLD = Duration.ofSeconds(8);

  static CaptchaAiSimulator sim;
  static WorkerNode node;
  static Solves solves;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    node =
        WorkerNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchaai.first-poll-wait.TURNSTILE", "1s",
                "captchaai.stuck-after", "1s",
                "captchaai.lost-submit-hold", HOLD.toSeconds() + "s"));
    solves = new Solves(node);
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  static long submits(String businessKey) {
    return sim.stats().submitsByPageUrl().getOrDefault(Solves.pageUrl(businessKey), 0L);
  }

  @Test
  void aTaskIdThatCannotBeStoredIsHeldLikeALostReplyAndLogged(CapturedOutput output) {
    solves
        .jdbc()
        .execute(
            "CREATE FUNCTION captchajobs.refuse_task_id() RETURNS trigger AS $$ BEGIN"
                + " IF NEW.business_key = 'lost-id' AND NEW.task_id IS NOT NULL THEN"
                + " RAISE EXCEPTION 'injected: the task id cannot be stored'; END IF;"
                + " RETURN NEW; END $$ LANGUAGE plpgsql");
    solves
        .jdbc()
        .execute(
            "CREATE TRIGGER refuse_task_id BEFORE UPDATE OF task_id ON captchajobs.solve"
                + " FOR EACH ROW EXECUTE FUNCTION captchajobs.refuse_task_id()");
    UUID id = solves.turnstile("lost-id");

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> output.getAll().contains("its id could not be stored"));
    long lostAt = System.nanoTime();
    assertThat(submits("lost-id")).isEqualTo(1);
    solves.jdbc().execute("DROP TRIGGER refuse_task_id ON captchajobs.solve");

    // The database accepts ids again at once, yet no second in.php call comes before the hold.
    await()
        .during(HOLD.minusSeconds(2))
        .atMost(HOLD)
        .until(() -> submits("lost-id") == 1 && solves.get(id).taskId() == null);
    Solve solved = solves.awaitStatus(id, SolveState.SOLVED, Duration.ofSeconds(60));
    long secondAfterMillis = (System.nanoTime() - lostAt) / 1_000_000;

    assertThat(secondAfterMillis).isGreaterThanOrEqualTo(HOLD.minusSeconds(2).toMillis());
    assertThat(submits("lost-id")).isEqualTo(2);
    Matcher m =
        Pattern.compile("Solve lost-id \\(" + id + "\\) task (\\S+) was created by in.php")
            .matcher(output.getAll());
    assertThat(m.find()).isTrue();
    String lostTaskId = m.group(1);
    assertThat(lostTaskId).isNotBlank().isNotEqualTo(solved.taskId());
    assertThat(output.getAll()).doesNotContain(KEY);
  }
}

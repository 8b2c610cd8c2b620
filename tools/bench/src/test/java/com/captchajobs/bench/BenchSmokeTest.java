package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short run of the whole harness (simulator, embedded PostgreSQL, app node, one worker JVM): it
 * checks that the harness works and that nothing is lost, doubled or over the cap. Timing figures
 * are not checked here: they need the full runs.
 */
class BenchSmokeTest {

  @TempDir Path out;

  @Test
  void aShortRunSolvesEverythingOnceWithinTheCapAndWritesTheReportAndPlot() throws Exception {
    BenchOptions options =
        BenchOptions.parse("--mode", "default", "--mix", "TURNSTILE:0.7,IMAGE:0.3")
            .with(
                20,
                1,
                4,
                0.05,
                out,
                Map.of(
                    "captchaai.first-poll-wait.TURNSTILE", "1s",
                    "captchaai.first-poll-wait.IMAGE", "1s",
                    "captchaai.min-first-poll-wait", "1s"));

    List<Figures> runs = BenchMain.runAll(options);
    Path report = Report.write(options, runs, out);

    Figures f = runs.get(0);
    assertThat(f.run().timedOut()).isFalse();
    assertThat(f.value("lost")).isZero();
    assertThat(f.value("solved")).isEqualTo(20);
    assertThat(f.value("overshoot")).isLessThanOrEqualTo(0);
    assertThat(f.value("duplicate_submits")).isZero();
    assertThat(f.run().stats().submitsByPageUrl().values()).allMatch(n -> n == 1L);
    // push is on by default: the app node received the simulator's pushes and accepted them
    assertThat(f.run().options().push()).isTrue();
    assertThat(f.value("pushes_accepted")).isGreaterThanOrEqualTo(14);
    // every solve the harness enqueued is one the provider's records know (images by their hash)
    assertThat(f.run().enqueuedAt()).hasSize(20);
    assertThat(f.run().tasks())
        .allMatch(t -> f.run().labels().containsKey(t.subject()), "a subject the harness enqueued");
    assertThat(f.value("res_gaps_under_5s")).isZero();
    assertThat(f.value("provider_util")).isBetween(0.0, 1.0);
    assertThat(f.value("idle_paid_longest_s")).isNotNaN();
    // the judging figures come from the simulator and the harness: without the engine's rows
    // (solves, polls, hand-offs, jobs) they are the same
    Figures blind = Figures.of(ProviderFiguresTest.withoutEngineRows(f.run()));
    for (String key : ProviderFiguresTest.JUDGING) {
      // boxed: NaN (a figure with nothing to measure) equals NaN
      assertThat((Object) blind.value(key)).as(key).isEqualTo(f.value(key));
    }
    String text = Files.readString(report);
    assertThat(text)
        .contains(
            "overshoot: ",
            "duplicate submits: 0",
            "solves lost: 0",
            "Push: on",
            "provider-thread utilisation: ",
            "of the fleet cap C = 4, ",
            "of the plan's 6 threads",
            "idle paid threads: ",
            "res.php spacing per task (simulator's request log): ",
            "paid duplicates per business key: 0 paid");
    try (var pngs = Files.list(out)) {
      assertThat(pngs.filter(p -> p.toString().endsWith(".png")))
          .singleElement()
          .satisfies(
              p -> {
                assertThat(Files.readAllBytes(p))
                    .startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
                assertThat(Files.readString(report)).contains("](" + p.getFileName() + ")");
              });
    }
  }

  @Test
  void unknownOptionsAreRejectedByName() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> BenchOptions.parse("--solvs", "3"))
        .hasMessage("unknown option --solvs");
  }

  @Test
  void theMixIsDrawnInItsProportions() {
    var types = TypeMix.parse("TURNSTILE:0.6,RECAPTCHA_V2:0.3,IMAGE:0.1").draw(300, 1);
    assertThat(types).hasSize(300);
    assertThat(types.stream().filter(t -> t.name().equals("TURNSTILE")).count()).isEqualTo(180);
    assertThat(types.stream().filter(t -> t.name().equals("IMAGE")).count()).isEqualTo(30);
  }
}

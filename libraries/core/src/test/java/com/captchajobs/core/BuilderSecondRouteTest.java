package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Six engine settings had a second route, on the builder itself: it still works, with a WARN. */
@Tag("unit")
class BuilderSecondRouteTest {

  private final Logger log = (Logger) LoggerFactory.getLogger(NodeBuilder.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  @BeforeEach
  void captureTheBuildersLog() {
    appender.start();
    log.addAppender(appender);
  }

  @AfterEach
  void stopCapturing() {
    log.detachAppender(appender);
  }

  @Test
  @SuppressWarnings("deprecation")
  void eachOfTheSixStillWinsOverSettingsAndWarnsNamingTheSolveSettingsMethodToUse() {
    NodeBuilder builder =
        (NodeBuilder)
            CaptchaJobs.builder()
                .threads(3)
                .threadsReserve(1)
                .preflight(false)
                .maxBackoff(Duration.ofSeconds(9))
                .reconcileInterval(Duration.ofSeconds(3))
                .providerCheckInterval(Duration.ofSeconds(40))
                .settings(SolveSettings.builder().threads(8).build());

    SolveSettings solve = NodePlan.solveSettings(builder);

    assertThat(solve.threads()).isEqualTo(3);
    assertThat(solve.threadsReserve()).isEqualTo(1);
    assertThat(solve.preflight()).isFalse();
    assertThat(solve.maxBackoff()).isEqualTo(Duration.ofSeconds(9));
    assertThat(solve.reconcileInterval()).isEqualTo(Duration.ofSeconds(3));
    assertThat(solve.providerCheckInterval()).isEqualTo(Duration.ofSeconds(40));
    List<String> warnings =
        appender.list.stream()
            .filter(e -> e.getLevel() == Level.WARN)
            .map(ILoggingEvent::getFormattedMessage)
            .toList();
    assertThat(warnings).hasSize(6);
    assertThat(warnings.get(0))
        .contains("CaptchaJobs.Builder.threads(int) is deprecated")
        .contains("settings(SolveSettings.builder().threads(int))");
    assertThat(warnings.get(5)).contains("providerCheckInterval(Duration)");
  }

  @Test
  void settingThemThroughSolveSettingsAloneWarnsNothing() {
    NodeBuilder builder =
        (NodeBuilder) CaptchaJobs.builder().settings(SolveSettings.builder().threads(8).build());

    assertThat(NodePlan.solveSettings(builder).threads()).isEqualTo(8);
    assertThat(appender.list).noneMatch(e -> e.getLevel() == Level.WARN);
  }
}

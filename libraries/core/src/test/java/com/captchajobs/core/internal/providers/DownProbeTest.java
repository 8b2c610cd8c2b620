package com.captchajobs.core.internal.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.gate.ProviderLanes;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Each case waits out real probe steps (up to 1.25 s): they run side by side. */
@Tag("unit")
@Execution(ExecutionMode.CONCURRENT)
class DownProbeTest {

  final AtomicInteger probes = new AtomicInteger();
  final AtomicInteger handOffs = new AtomicInteger();

  @Test
  void aRandomFaultCostsOneProbeWhenThePrimaryAnswersIt() {
    DownProbe probe =
        new DownProbe(() -> probes.incrementAndGet() > 0, () -> false, handOffs::incrementAndGet);

    probe.serverTrouble();
    probe.serverTrouble(); // one run at a time

    await().atMost(Duration.ofSeconds(5)).until(() -> !probe.running());
    assertThat(probes).hasValue(1);
    assertThat(handOffs).hasValue(0);
  }

  @Test
  void anOutageIsJudgedDownWithinTheDownSpanAndTheWaitingSolvesAreHandedFreeSlotsOnce() {
    // the gate's rule: the trouble that started the run and the probes after it, over DOWN_AFTER
    DownProbe probe = unanswered(() -> probes.get() >= ProviderLanes.DOWN_FAILURES - 1);
    long start = System.nanoTime();

    probe.serverTrouble();

    await().atMost(Duration.ofSeconds(5)).until(() -> handOffs.get() == 1);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("the probes span the down rule's window")
        .isGreaterThanOrEqualTo(ProviderLanes.DOWN_AFTER);
    await().atMost(Duration.ofSeconds(5)).until(() -> !probe.running());
    assertThat(probes).hasValue(ProviderLanes.DOWN_FAILURES - 1);
    assertThat(handOffs).hasValue(1);
  }

  @Test
  void aPrimaryThatNeitherAnswersNorIsJudgedDownIsProbedAtMostTheDownRunsLength() {
    // e.g. another node's real answers keep ending the failing run
    DownProbe probe = unanswered(() -> false);

    probe.serverTrouble();

    await().atMost(Duration.ofSeconds(5)).until(() -> !probe.running());
    assertThat(probes).hasValue(ProviderLanes.DOWN_FAILURES);
    assertThat(handOffs).hasValue(0);
  }

  @Test
  void aPrimaryJudgedDownAlreadyIsNotProbedAgain() {
    DownProbe probe =
        new DownProbe(() -> probes.incrementAndGet() > 0, () -> true, handOffs::incrementAndGet);

    probe.serverTrouble();

    await().atMost(Duration.ofSeconds(5)).until(() -> !probe.running());
    assertThat(probes).hasValue(0);
    assertThat(handOffs).hasValue(0);
  }

  /** A probe of a primary that answers nothing, judged down by {@code down}. */
  private DownProbe unanswered(BooleanSupplier down) {
    return new DownProbe(
        () -> {
          probes.incrementAndGet();
          return false;
        },
        down,
        handOffs::incrementAndGet);
  }
}

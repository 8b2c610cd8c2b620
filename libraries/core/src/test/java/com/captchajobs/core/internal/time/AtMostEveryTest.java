package com.captchajobs.core.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The once-per-period gate of summary lines and the plan check. */
@Tag("unit")
class AtMostEveryTest {

  private final PushWatchTest.Hands clock = new PushWatchTest.Hands();
  private final AtMostEvery gate = new AtMostEvery(Duration.ofMinutes(1), clock);

  @Test
  void theFirstCallPassesAndTheNextOnlyOnceThePeriodHasGoneBy() {
    assertThat(gate.pass()).isTrue();
    assertThat(gate.pass()).isFalse();

    clock.now = clock.now.plusSeconds(59);
    assertThat(gate.pass()).isFalse();

    clock.now = clock.now.plusSeconds(1);
    assertThat(gate.pass()).isTrue();
    assertThat(gate.pass()).isFalse();
  }

  @Test
  void ofManyThreadsCallingAtOnceExactlyOnePasses() throws Exception {
    int threads = 16;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Boolean>> calls = new ArrayList<>();
      Callable<Boolean> call =
          () -> {
            start.await();
            return gate.pass();
          };
      for (int i = 0; i < threads; i++) {
        calls.add(pool.submit(call));
      }
      start.countDown();
      int passed = 0;
      for (Future<Boolean> f : calls) {
        passed += f.get() ? 1 : 0;
      }
      assertThat(passed).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }
}

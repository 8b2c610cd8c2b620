package com.captchajobs.core.internal.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.notify.PushNotice;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The bounds of a worker's own executor of pushed fetches ({@link PushedFetches}), with a fetch
 * that only counts: a full executor drops a notice (its job stands), a claim too soon is tried
 * again at the instant it names a bounded number of times, and the notice's payload carries ids and
 * instants only.
 */
@Tag("unit")
class PushedFetchesBoundsTest {

  static final Clock CLOCK = Clock.systemUTC();

  static PushNotice notice(Instant at) {
    return new PushNotice(UUID.randomUUID(), 1, 3, 0, at.toEpochMilli());
  }

  @Test
  void aNoticeBeyondTheWaitingBoundIsDroppedAndLeftToItsJob() {
    AtomicInteger fetched = new AtomicInteger();
    try (PushedFetches fetches =
        new PushedFetches(
            (n, carry) -> {
              fetched.incrementAndGet();
              return Optional.empty();
            },
            CLOCK)) {
      Instant later = CLOCK.instant().plus(Duration.ofHours(1));
      for (int i = 0; i < PushedFetches.MAX_PENDING; i++) {
        fetches.onNotice(notice(later));
      }
      assertThat(fetches.droppedCount()).isZero();

      fetches.onNotice(notice(later));

      assertThat(fetches.droppedCount()).isEqualTo(1);
      assertThat(fetches.pending()).isEqualTo(PushedFetches.MAX_PENDING);
      assertThat(fetched).hasValue(0);
    }
  }

  @Test
  void aClaimTooSoonIsTriedAgainAtTheInstantItNamesAtMostMaxTriesTimes() {
    List<Instant> tries = new CopyOnWriteArrayList<>();
    try (PushedFetches fetches =
        new PushedFetches(
            (n, carry) -> {
              Instant now = CLOCK.instant();
              tries.add(now);
              return Optional.of(now.plusMillis(50)); // always too soon
            },
            CLOCK)) {
      fetches.onNotice(notice(CLOCK.instant()));

      await().atMost(Duration.ofSeconds(5)).until(() -> tries.size() == PushedFetches.MAX_TRIES);
      await().atMost(Duration.ofSeconds(5)).until(() -> fetches.pending() == 0);
      assertThat(tries).hasSize(PushedFetches.MAX_TRIES);
      for (int i = 1; i < tries.size(); i++) {
        assertThat(tries.get(i)).isAfterOrEqualTo(tries.get(i - 1).plusMillis(50));
      }
    }
  }

  @Test
  void aFetchMayCarryASubmitOnlyWhileHalfTheThreadsOrFewerAreBusyAndItStartedOnTime()
      throws Exception {
    List<Boolean> mayCarry = new CopyOnWriteArrayList<>();
    CountDownLatch allRunning = new CountDownLatch(PushedFetches.THREADS);
    try (PushedFetches fetches =
        new PushedFetches(
            (n, carry) -> {
              mayCarry.add(carry);
              allRunning.countDown();
              allRunning.await(); // every thread busy at once
              return Optional.empty();
            },
            CLOCK)) {
      for (int i = 0; i < PushedFetches.THREADS; i++) {
        fetches.onNotice(notice(CLOCK.instant()));
      }

      await().atMost(Duration.ofSeconds(5)).until(() -> mayCarry.size() == PushedFetches.THREADS);
      assertThat(mayCarry).filteredOn(carry -> carry).hasSize(PushedFetches.CARRY_WHILE_RUNNING);
    }
  }

  @Test
  void aFetchThatStartsLateAfterItsInstantCarriesNothing() {
    List<Boolean> mayCarry = new CopyOnWriteArrayList<>();
    try (PushedFetches fetches =
        new PushedFetches(
            (n, carry) -> {
              mayCarry.add(carry);
              return Optional.empty();
            },
            CLOCK)) {
      // a backlog of fetches delays its start: its instant a second ago
      fetches.onNotice(notice(CLOCK.instant().minusSeconds(1)));
      fetches.onNotice(notice(CLOCK.instant().plusMillis(100)));

      await().atMost(Duration.ofSeconds(5)).until(() -> mayCarry.size() == 2);
      assertThat(mayCarry).containsExactly(false, true);
    }
  }

  @Test
  void aNoticesPayloadIsItsIdsAndInstantsAndAnythingElseIsNoNotice() {
    PushNotice n = new PushNotice(UUID.randomUUID(), 2, 7, 1_700_000_000_000L, 1_700_000_005_050L);

    assertThat(PushNotice.parse(n.payload())).hasValue(n);
    assertThat(n.payload()).isEqualTo(n.solveId() + ":2:7:1700000000000:1700000005050");
    assertThat(PushNotice.parse(null)).isEmpty();
    assertThat(PushNotice.parse("node-1")).isEmpty();
    assertThat(PushNotice.parse(n.solveId() + ":2:7:x:1")).isEmpty();
  }
}

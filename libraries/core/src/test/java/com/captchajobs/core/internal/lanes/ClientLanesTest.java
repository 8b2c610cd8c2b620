package com.captchajobs.core.internal.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.webhook.WebhookJobRequest;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.settings.WebhookSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.JobDetails;
import org.jobrunr.jobs.states.EnqueuedState;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.ProcessingState;
import org.jobrunr.jobs.states.ScheduledState;
import org.jobrunr.jobs.states.StateName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ClientLanesTest {

  private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  @Test
  void aClientOverItsShareIsParkedWithoutUsingARetryAndOthersStillGetIn() {
    AtomicInteger parkedFetches = new AtomicInteger();
    ClientLanes lanes =
        new ClientLanes(
            2,
            Duration.ofHours(1),
            Duration.ofMinutes(2),
            clock,
            parkedFetches::incrementAndGet,
            id -> {});

    Job a1 = fetched("hanger");
    Job a2 = fetched("hanger");
    Job a3 = fetched("hanger");
    Job b1 = fetched("bob");

    assertThat(lanes.admit(a1)).isTrue();
    assertThat(lanes.admit(a2)).isTrue();
    assertThat(lanes.admit(a3)).isFalse();
    assertThat(lanes.admit(b1)).isTrue();
    lanes.release(a3.getId()); // its parking is stored

    assertThat(a3.getState()).isEqualTo(StateName.SCHEDULED);
    assertThat(((ScheduledState) a3.getJobState()).getScheduledAt())
        .isEqualTo(clock.instant().plus(Duration.ofHours(1)));
    assertThat(a3.getJobStates()).noneMatch(s -> s.getName() == StateName.FAILED);
    assertThat(parkedFetches).hasValue(1);
    assertThat(lanes.parked("hanger")).isEqualTo(1);
    assertThat(lanes.inFlight("hanger")).isEqualTo(2);
    assertThat(lanes.inFlight("bob")).isEqualTo(1);
  }

  @Test
  void aFreedSharePassesToTheFirstParkedDeliveryAndNoLaterOneTakesIt() {
    List<UUID> released = new ArrayList<>();
    ClientLanes lanes =
        new ClientLanes(
            1, Duration.ofHours(1), Duration.ofMinutes(2), clock, () -> {}, released::add);
    Job a1 = fetched("hanger");
    Job a2 = fetched("hanger");
    Job a3 = fetched("hanger");
    assertThat(lanes.admit(a1)).isTrue();
    assertThat(admitOrPark(lanes, a2)).isFalse();
    assertThat(admitOrPark(lanes, a3)).isFalse();

    lanes.release(a1.getId());

    assertThat(released).containsExactly(a2.getId());
    assertThat(admitOrPark(lanes, fetched("hanger")))
        .as("a newcomer finds the share passed on")
        .isFalse();
    assertThat(lanes.admit(a2)).as("the parked delivery it was passed to").isTrue();
    assertThat(lanes.inFlight("hanger")).isEqualTo(1);
    assertThat(lanes.parked("hanger")).isEqualTo(2);
  }

  @Test
  void aShareFreedWhileAParkingIsBeingStoredPassesToItOnlyOnceItIsStored() {
    List<UUID> released = new ArrayList<>();
    ClientLanes lanes =
        new ClientLanes(
            1, Duration.ofHours(1), Duration.ofMinutes(2), clock, () -> {}, released::add);
    Job a1 = fetched("hanger");
    Job a2 = fetched("hanger");
    assertThat(lanes.admit(a1)).isTrue();
    assertThat(lanes.admit(a2)).isFalse();

    lanes.release(a1.getId());

    assertThat(released)
        .as("nothing to pass to: an enqueue now would be overwritten by a2's parking")
        .isEmpty();
    assertThat(lanes.parked("hanger")).isZero();

    lanes.release(a2.getId()); // the fetch's transaction stored the parking

    assertThat(released).as("the free share, at once").containsExactly(a2.getId());
    assertThat(lanes.admit(fetched("hanger"))).as("a newcomer finds it taken").isFalse();
    assertThat(lanes.admit(a2)).isTrue();
  }

  @Test
  void aDeliveryParkedTwiceWaitsInItsQueueOnceAndAStoppingNodeHandsEveryParkedOneBack() {
    ClientLanes lanes =
        new ClientLanes(1, Duration.ofHours(1), Duration.ofMinutes(2), clock, () -> {}, id -> {});
    Job a1 = fetched("hanger");
    Job a2 = fetched("hanger");
    Job b1 = fetched("bob");
    Job b2 = fetched("bob");
    lanes.admit(a1);
    lanes.admit(b1);

    assertThat(admitOrPark(lanes, a2)).isFalse();
    assertThat(admitOrPark(lanes, a2)).isFalse();
    assertThat(admitOrPark(lanes, b2)).isFalse();

    assertThat(lanes.parked("hanger")).isEqualTo(1);
    assertThat(lanes.drainParked()).containsExactlyInAnyOrder(a2.getId(), b2.getId());
    assertThat(lanes.parked("hanger")).isZero();
  }

  @Test
  void theDefaultShareLeavesAThreadThatNoTwoClientsCanTake() {
    assertThat(WebhookSettings.defaultThreadsPerClient(1)).isEqualTo(1);
    assertThat(WebhookSettings.defaultThreadsPerClient(4)).isEqualTo(1);
    assertThat(WebhookSettings.defaultThreadsPerClient(5)).isEqualTo(2);
    assertThat(WebhookSettings.defaultThreadsPerClient(8)).isEqualTo(3);
    for (int threads = 3; threads <= 64; threads++) {
      assertThat(2 * WebhookSettings.defaultThreadsPerClient(threads))
          .as("threads " + threads)
          .isLessThan(threads);
    }
  }

  @Test
  void aLongClientNameStillGetsALabelJobRunrAccepts() {
    String name = "a".repeat(100);
    assertThat(ClientLanes.label(name)).hasSizeLessThanOrEqualTo(45).startsWith("client:aaa");
    assertThat(ClientLanes.label(name)).isNotEqualTo(ClientLanes.label("a".repeat(99) + "b"));
    assertThat(ClientLanes.label("shop")).isEqualTo("client:shop");
  }

  /** Admits a fetched delivery; when it is parked, its parking is stored as JobRunr would. */
  private static boolean admitOrPark(ClientLanes lanes, Job job) {
    boolean admitted = lanes.admit(job);
    if (!admitted) {
      lanes.release(job.getId());
    }
    return admitted;
  }

  private static Job fetched(String client) {
    List<JobState> history =
        new ArrayList<>(
            List.of(new EnqueuedState(), new ProcessingState(UUID.randomUUID(), "test-webhooks")));
    Job job =
        new Job(
            UUID.randomUUID(),
            0,
            new JobDetails(new WebhookJobRequest(UUID.randomUUID(), SolveStatus.SOLVED)),
            history,
            new ConcurrentHashMap<>());
    job.setLabels(List.of("webhook", ClientLanes.label(client)));
    return job;
  }
}

package com.captchajobs.core.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.store.SolveState;
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
import org.jobrunr.jobs.states.StateName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ClientLanesTest {

  private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  @Test
  void aClientOverItsShareIsSentBackToScheduledWithoutUsingARetryAndOthersStillGetIn() {
    ClientLanes lanes = new ClientLanes(2, Duration.ofSeconds(10), Duration.ofMinutes(2), clock);
    AtomicInteger sentBack = new AtomicInteger();
    lanes.onSentBack(sentBack::incrementAndGet);

    Job a1 = fetched("hanger");
    Job a2 = fetched("hanger");
    Job a3 = fetched("hanger");
    Job b1 = fetched("bob");

    assertThat(lanes.admit(a1)).isTrue();
    assertThat(lanes.admit(a2)).isTrue();
    assertThat(lanes.admit(a3)).isFalse();
    assertThat(lanes.admit(b1)).isTrue();

    assertThat(a3.getState()).isEqualTo(StateName.SCHEDULED);
    assertThat(a3.getJobStates()).noneMatch(s -> s.getName() == StateName.FAILED);
    assertThat(sentBack).hasValue(1);
    assertThat(lanes.inFlight("hanger")).isEqualTo(2);
    assertThat(lanes.inFlight("bob")).isEqualTo(1);

    lanes.release(a1.getId());
    assertThat(lanes.inFlight("hanger")).isEqualTo(1);
    assertThat(lanes.admit(fetched("hanger"))).isTrue();
  }

  @Test
  void theWaitOfADeliverySentBackDoublesUpToTheMaximum() {
    ClientLanes lanes = new ClientLanes(1, Duration.ofSeconds(10), Duration.ofMinutes(2), clock);

    assertThat(lanes.waitAfter(0)).isBetween(Duration.ofMillis(750), Duration.ofMillis(1250));
    assertThat(lanes.waitAfter(2)).isBetween(Duration.ofMillis(3000), Duration.ofMillis(5000));
    assertThat(lanes.waitAfter(30)).isBetween(Duration.ofMillis(7500), Duration.ofMillis(12500));
  }

  @Test
  void aLongClientNameStillGetsALabelJobRunrAccepts() {
    String name = "a".repeat(100);
    assertThat(ClientLanes.label(name)).hasSizeLessThanOrEqualTo(45).startsWith("client:aaa");
    assertThat(ClientLanes.label(name)).isNotEqualTo(ClientLanes.label("a".repeat(99) + "b"));
    assertThat(ClientLanes.label("shop")).isEqualTo("client:shop");
  }

  private static Job fetched(String client) {
    List<JobState> history =
        new ArrayList<>(
            List.of(new EnqueuedState(), new ProcessingState(UUID.randomUUID(), "test-webhooks")));
    Job job =
        new Job(
            UUID.randomUUID(),
            0,
            new JobDetails(new WebhookJobRequest(UUID.randomUUID(), SolveState.SOLVED)),
            history,
            new ConcurrentHashMap<>());
    job.setLabels(List.of("webhook", ClientLanes.label(client)));
    return job;
  }
}

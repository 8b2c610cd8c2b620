package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.simulator.TaskRecord;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the chaos report tells a duplicate in.php explained by a lost reply from one that is not. */
class DuplicatesTest {

  static TaskRecord task(long id, String pageUrl, long acceptedAt, long polls, boolean fetched) {
    return new TaskRecord(
        id,
        pageUrl == null ? "base64" : "turnstile",
        pageUrl,
        acceptedAt,
        acceptedAt,
        acceptedAt + 1000,
        1000,
        polls,
        fetched);
  }

  @Test
  void aSecondSubmitAfterATaskNeverPolledNorFetchedIsExplainedByALostReply() {
    var d =
        Figures.Duplicates.of(
            List.of(task(1, "https://p/a", 10, 0, false), task(2, "https://p/a", 20, 3, true)),
            Set.of("2"),
            null,
            1);

    assertThat(d.extras()).isEqualTo(1);
    assertThat(d.explained()).isEqualTo(1);
    assertThat(d.unexplained()).isZero();
  }

  @Test
  void aSecondSubmitAfterATaskTheEngineHadPolledIsNotExplained() {
    var d =
        Figures.Duplicates.of(
            List.of(task(1, "https://p/a", 10, 2, false), task(2, "https://p/a", 20, 1, true)),
            Set.of("2"),
            null,
            1);

    assertThat(d.unexplained()).isEqualTo(1);
    assertThat(d.unexplainedTasks()).singleElement().asString().contains("task 1", "then task 2");
  }

  @Test
  void aSecondSubmitAfterATaskTheEngineGaveUpByDesignIsCountedApart() {
    var d =
        Figures.Duplicates.of(
            List.of(task(1, "https://p/a", 10, 3, true), task(2, "https://p/a", 20, 1, true)),
            Set.of("2"),
            Set.of("1", "2"),
            java.util.Map.of("1", "its answer came too late to be sure it is still valid"),
            1);

    assertThat(d.givenUp()).isEqualTo(1);
    assertThat(d.unexplained()).isZero();
    assertThat(d.explained()).isZero();
    assertThat(d.givenUpTasks()).singleElement().asString().contains("task 1", "too late");
  }

  @Test
  void aTaskTheEngineStoredIsNotALostReplyEvenIfNoPollEverReachedIt() {
    // a provider outage: every poll of task 1 was answered by the outage, none reached the task
    var d =
        Figures.Duplicates.of(
            List.of(task(1, "https://p/a", 10, 0, false), task(2, "https://p/a", 20, 1, true)),
            Set.of("2"),
            Set.of("1", "2"),
            1);

    assertThat(d.explained()).isZero();
    assertThat(d.unexplained()).isEqualTo(1);
    assertThat(d.unexplainedTasks()).singleElement().asString().contains("stored by the engine");
  }

  @Test
  void anImageTaskThatIsNoSolvesFinalTaskCountsAsTheEarlierOfAPair() {
    var d =
        Figures.Duplicates.of(
            List.of(
                task(1, null, 10, 0, false),
                task(2, null, 20, 1, true),
                task(3, null, 30, 1, false),
                task(4, null, 40, 2, true)),
            Set.of("2", "4"),
            null,
            2);

    assertThat(d.extras()).isEqualTo(2);
    assertThat(d.explained()).isEqualTo(1);
    assertThat(d.unexplained()).isEqualTo(1);
  }

  @Test
  void duplicatesTheSimulatorCountedBeyondThoseFoundAreUnexplained() {
    var d =
        Figures.Duplicates.of(List.of(task(1, "https://p/a", 10, 1, true)), Set.of("1"), null, 2);

    assertThat(d.unexplained()).isEqualTo(2);
  }
}

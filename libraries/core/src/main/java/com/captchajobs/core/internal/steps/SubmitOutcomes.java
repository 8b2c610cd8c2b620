package com.captchajobs.core.internal.steps;

import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.CaptchaAiTransportException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.engine.SubmitJob;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an in.php outcome does to a solve that has no task yet ({@link SubmitStep}'s): thread
 * saturation (the solve waits for a provider thread, no retry spent), a credential or permanent
 * code (failed through {@link TaskOutcomes}, which decides the same for res.php), a transient code
 * or a lost reply (retried, or routed by the gate when providers stand beside the primary), and a
 * task id in.php gave that could not be stored. Slots are freed through {@link SlotHandoff} only;
 * every method returns the {@link Step} the job goes on with.
 */
final class SubmitOutcomes {

  /** The code recorded when in.php answered but the task id could not be stored. */
  static final String LOST_TASK_ID = "TASK_ID_NOT_STORED";

  /**
   * The least pause before a solve whose in.php met server trouble is submitted again (CaptchaAI
   * asks for 5 s before repeating a request that met a server error); a quarter more as jitter.
   */
  static final Duration SERVER_ERROR_PAUSE = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(SubmitOutcomes.class);

  private final TaskOutcomes outcomes;
  private final SolveTransitions transitions;
  private final SlotHandoff handoff;
  private final Providers providers;
  private final SolveSettings settings;
  private final EngineListener events;

  /**
   * @param providers as for {@link TaskOutcomes}: null on a node without a key
   */
  SubmitOutcomes(
      TaskOutcomes outcomes,
      SolveTransitions transitions,
      SlotHandoff handoff,
      Providers providers,
      SolveSettings settings,
      EngineListener events) {
    this.outcomes = outcomes;
    this.transitions = transitions;
    this.handoff = handoff;
    this.providers = providers;
    this.settings = settings;
    this.events = events;
  }

  /**
   * An error code or a lost reply of in.php: thread saturation waits for a thread, a permanent code
   * fails the solve, a transient one is retried (a reply lost on the way may have created a task
   * anyway: its slot stays taken a while). With providers beside the primary, a transient one
   * instead puts the solve back among those waiting for a thread, for at least {@link
   * #SERVER_ERROR_PAUSE}, no retry spent: the gate then routes it (a primary judged down: to a
   * backup) rather than JobRunr's backoff keeping it from a free thread.
   */
  Step submitError(Solve solve, CaptchaAiException e) {
    ErrorClass errorClass = e.errorClass();
    events.error(e.errorCode(), errorClass);
    if (errorClass == ErrorClass.THREADS) {
      // Not a failure of the solve: it waits for a provider thread, no retry spent.
      waitForThread(solve, settings.threadWait(), e.errorCode());
      handoff.giveBack(solve.id());
      log.info(
          "Solve {} ({}) WAITING_FOR_THREAD: provider answered {}",
          solve.businessKey(),
          solve.id(),
          e.errorCode());
      if (providers != null && providers.get(solve.provider()).planCheck() != null) {
        providers.get(solve.provider()).planCheck().afterThreadsError(e.errorCode());
      }
      return Step.DONE;
    }
    if (e.permanent()) {
      return outcomes.permanent(solve, e, "in.php");
    }
    // Another provider may take it: back into the gate's waiting line for the router (primary
    // down: a backup), after the pause the provider asks for, no retry spent.
    boolean routed = providers != null && providers.hasOthers();
    if (routed) {
      waitForThread(solve, SERVER_ERROR_PAUSE, e.errorCode());
    } else {
      transitions.markRetrying(solve.id(), e.errorCode(), errorClass);
    }
    if (e instanceof CaptchaAiTransportException) {
      handoff.holdForAbandonedTask(solve.id(), settings.lostSubmitHold());
    }
    handoff.release(solve.id()); // hands on what is free, the held slot aside
    log.warn(
        "Solve {} ({}) in.php at {} failed with {} ({}): {}",
        solve.businessKey(),
        solve.id(),
        solve.provider(),
        e.errorCode(),
        errorClass,
        routed ? "WAITING_FOR_THREAD, the gate routes it" : "will retry");
    return routed ? Step.DONE : new Step.Retry(e);
  }

  /** The solve waits for a provider thread for {@code pause} and up to a quarter more. */
  private void waitForThread(Solve solve, Duration pause, String code) {
    long jitter = ThreadLocalRandom.current().nextLong(pause.toMillis() / 4 + 1);
    transitions.waitForThread(solve.id(), pause.plusMillis(jitter), code);
  }

  /**
   * In.php created task {@code taskId}, but its id could not be stored ({@code cause}): treated as
   * a lost reply. The slot is held by a phantom and the submit lock extended, both for {@code
   * captchaai.lost-submit-hold}, so no new in.php call comes before; the job is retried.
   */
  Step taskIdLost(Solve solve, String taskId, RuntimeException cause) {
    log.error(
        "Solve {} ({}) task {} was created by in.php but its id could not be stored: treated as a"
            + " lost reply, slot held and no new submission for {}",
        solve.businessKey(),
        solve.id(),
        taskId,
        settings.lostSubmitHold());
    try {
      handoff.holdForAbandonedTask(solve.id(), settings.lostSubmitHold());
      transitions.holdAfterLostTaskId(solve.id(), settings.lostSubmitHold(), LOST_TASK_ID);
    } catch (RuntimeException e) {
      // The submit lock taken before in.php still stands for its own span.
      log.warn("Solve {} ({}): could not record the hold: {}", solve.businessKey(), solve.id(), e);
    }
    events.error(LOST_TASK_ID, ErrorClass.TRANSIENT);
    return new Step.Retry(new SubmitJob.TaskIdNotStoredException(solve.id(), cause));
  }
}

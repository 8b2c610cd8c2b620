package com.captchajobs.core.internal.assembly;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.engine.PollJob;
import com.captchajobs.core.internal.engine.PushedPollJob;
import com.captchajobs.core.internal.engine.SubmitJob;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PingbackRegistration;
import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.internal.provider.PlanCheck;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.internal.push.PushedFetches;
import com.captchajobs.core.internal.steps.PollStep;
import com.captchajobs.core.internal.steps.SlotHandoff;
import com.captchajobs.core.internal.steps.SolveLife;
import com.captchajobs.core.internal.steps.SubmitStep;
import com.captchajobs.core.internal.steps.TaskOutcomes;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.FirstPollWaits;
import com.captchajobs.core.internal.time.PushWatch;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's submit and poll jobs with what they call: the client, the credential breaker, the
 * fleet gate, the slot hand-off, the learned first-poll waits, the plan check and, with a pingback
 * secret, the pushes.
 *
 * @param pushedPollJob the fetch a push rings for
 * @param pingbacks the receiver of pushes, or null
 * @param providers the primary and the providers beside it
 * @param pushedFetches the fetches of rung pushes this worker makes outside JobRunr's queue
 */
record SolveJobsWiring(
    CaptchaAiClient client,
    Breaker breaker,
    FleetGate gate,
    SlotHandoff handoff,
    FirstPollWaits waits,
    PlanCheck planCheck,
    SubmitJob submitJob,
    PollJob pollJob,
    PushedPollJob pushedPollJob,
    Pingbacks pingbacks,
    Providers providers,
    PushedFetches pushedFetches) {

  private static final Logger log = LoggerFactory.getLogger(SolveJobsWiring.class);

  static SolveJobsWiring of(Shared s) {
    NodeSettings settings = s.settings();
    SolveSettings engine = s.engine();
    EngineListener events = settings.events();
    SolveRepository repository = s.repository();
    Clock clock = s.clock();
    CaptchaAiClient client = settings.client();
    Breaker breaker = new Breaker(settings.dataSource(), s.schema(), client.keyFingerprint());
    FleetGate gate =
        new FleetGate(
            settings.dataSource(),
            s.schema(),
            engine.lease(),
            settings.nodeName(),
            s.jobRunr()::serverId,
            ProviderWiring.lanes(settings.providers()),
            client.keyFingerprint());
    SolveTransitions transitions = new SolveTransitions(settings.dataSource(), s.schema());
    SlotHandoff handoff = new SlotHandoff(gate, s.jobs(), transitions);
    FirstPollWaits waits = new FirstPollWaits(engine, repository::recentSolved, clock);
    PlanCheck planCheck =
        new PlanCheck(client, breaker, clock, settings.solve().providerCheckInterval());
    Providers providers =
        ProviderWiring.providers(s, client, breaker, planCheck, gate.lanes(), handoff::handOff);
    // With a pingback secret: what the jobs and the receiver of pushes are built with.
    PingbackSettings push = settings.pingbacks();
    PingbackUrls urls = push == null ? null : new PingbackUrls(push.url(), push.secret());
    boolean sendsUrls = urls != null && urls.sendsUrls();
    TaskOutcomes outcomes =
        new TaskOutcomes(
            repository,
            transitions,
            handoff,
            providers,
            s.jobs(),
            engine,
            events,
            clock,
            sendsUrls ? new PushWatch(push.url(), clock) : null);
    PollStep pollStep =
        new PollStep(repository, transitions, outcomes, providers, s.jobs(), engine, events, clock);
    SubmitStep submitStep =
        new SubmitStep(
            repository,
            transitions,
            gate,
            handoff,
            outcomes,
            providers,
            s.jobs(),
            waits,
            engine,
            events,
            clock,
            urls);
    // The one owner of a solve's life, which the jobs call: it makes their steps and carries on
    // with a handed-over solve in the running job's thread.
    SolveLife life =
        new SolveLife(
            submitStep, pollStep, repository, transitions, s.jobs(), clock, s.jobRunr()::serverId);
    SubmitJob submitJob = new SubmitJob(life);
    PollJob pollJob = new PollJob(life);
    Pingbacks pingbacks =
        urls == null ? null : new Pingbacks(urls, repository, transitions, s.jobs(), engine, clock);
    if (sendsUrls) {
      if (push.register()) {
        providers.all().forEach(p -> new PingbackRegistration(p.client()).startFor(push.url()));
      }
      log.info(
          "Pushes ring at {}: each one fetches its task's result from res.php at once (polling"
              + " as the fallback)",
          push.url());
    }
    return new SolveJobsWiring(
        client,
        breaker,
        gate,
        handoff,
        waits,
        planCheck,
        submitJob,
        pollJob,
        new PushedPollJob(life),
        pingbacks,
        providers,
        new PushedFetches(life::fetchPushed, clock));
  }
}

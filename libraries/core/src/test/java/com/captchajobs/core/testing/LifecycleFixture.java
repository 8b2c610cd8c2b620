package com.captchajobs.core.testing;

import com.captchajobs.simulator.CaptchaAiSimulator;
import java.util.Map;

/**
 * A worker node on a fresh database and a fast simulator (solve times × 0.05, 5 threads), set up as
 * the tests of a solve's life share it: quick first polls for Turnstile and reCAPTCHA v2, longer
 * ones (8 s) for reCAPTCHA v3 and images: beyond the 6 s poll lead, so that their first poll is a
 * job of its own a crash test can remove, and each of those tests checks it removed it in time, no
 * periodic {@code threadsinfo} call (it would take a fault injected for a poll), and a repair pass
 * that calls a solve stuck after 3 s.
 *
 * @param sim the simulator
 * @param node the worker node
 * @param solves enqueue, await and read rows on the node
 */
public record LifecycleFixture(CaptchaAiSimulator sim, EngineNode node, SolveProbe solves)
    implements AutoCloseable {

  /** The node's properties. */
  public static final Map<String, String> PROPERTIES =
      Map.of(
          "captchaai.first-poll-wait.TURNSTILE", "1s",
          "captchaai.first-poll-wait.RECAPTCHA_V2", "1s",
          "captchaai.first-poll-wait.RECAPTCHA_V3", "8s",
          "captchaai.first-poll-wait.IMAGE", "8s",
          "captchaai.provider-check-interval", "1h",
          "captchaai.stuck-after", "3s",
          "logging.level.com.captchajobs", "DEBUG");

  /** Starts the simulator with an account for {@code key} and a worker using that key. */
  public static LifecycleFixture start(String key) {
    CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder().account(key, 5).timeScale(0.05).build().start();
    EngineNode node = EngineNode.onFreshDatabase(sim, key, PROPERTIES);
    return new LifecycleFixture(sim, node, node.probe());
  }

  /** in.php calls the simulator accepted for the solve of {@code businessKey}. */
  public long submitsFor(String businessKey) {
    return sim.stats().submitsByPageUrl().getOrDefault(SolveProbe.pageUrl(businessKey), 0L);
  }

  @Override
  public void close() {
    node.close();
    sim.close();
  }
}

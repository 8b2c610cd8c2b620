package com.captchajobs.simulator;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts a {@link CaptchaAiSimulator} before all tests of a class and closes it after them.
 *
 * <pre>{@code
 * @RegisterExtension
 * static SimulatorExtension sim = new SimulatorExtension(CaptchaAiSimulator.builder().timeScale(0.05));
 * ... sim.get().baseUrl() ...
 * }</pre>
 */
public final class SimulatorExtension implements BeforeAllCallback, AfterAllCallback {
  private final CaptchaAiSimulator.Builder builder;
  private CaptchaAiSimulator simulator;

  /**
   * @Nested classes call beforeAll/afterAll again: one simulator serves the whole tree.
   */
  private int depth;

  /** A simulator with the builder's defaults (SANDBOX_KEY, 5 threads, real solve times). */
  public SimulatorExtension() {
    this(CaptchaAiSimulator.builder());
  }

  public SimulatorExtension(CaptchaAiSimulator.Builder builder) {
    this.builder = builder;
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) {
    if (depth++ == 0) {
      simulator = builder.build().start();
    }
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    if (--depth == 0 && simulator != null) {
      simulator.close();
      simulator = null;
    }
  }

  /** The running simulator; only between beforeAll and afterAll. */
  public synchronized CaptchaAiSimulator get() {
    if (simulator == null) {
      throw new IllegalStateException(
          "SimulatorExtension is not running: register it as a static @RegisterExtension field");
    }
    return simulator;
  }
}

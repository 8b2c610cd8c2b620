package com.captchajobs.simulator;

import java.util.concurrent.CountDownLatch;

/**
 * Runs the simulator as a server until SIGTERM/Ctrl-C:
 *
 * <pre>
 * java -jar libraries/simulator/target/captchajobs-simulator.jar --port 9000 --threads 5 --time-scale 0.1 \
 *     --fault HTML_502=0.05 --fault PLAIN_TEXT=0.02
 * </pre>
 *
 * Bad arguments print a message naming the argument and exit with code 2.
 */
public final class SimulatorMain {
  static final int EXIT_USAGE = 2;

  /** A logback configuration of our own name, so that the module never ships a logback.xml. */
  private static final String LOGBACK_CONFIG = "captchajobs-simulator-logback.xml";

  private SimulatorMain() {}

  public static void main(String[] args) throws InterruptedException {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", LOGBACK_CONFIG);
    }
    SimulatorArgs parsed;
    try {
      parsed = SimulatorArgs.parse(args);
    } catch (SimulatorArgs.UsageException e) {
      System.err.println(e.getMessage());
      System.err.print(SimulatorArgs.usage());
      System.exit(EXIT_USAGE);
      return;
    }
    if (parsed.help) {
      System.out.print(SimulatorArgs.usage());
      return;
    }
    CaptchaAiSimulator simulator = start(parsed);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  simulator.close();
                  stopped.countDown();
                },
                "captchaai-sim-shutdown"));
    System.out.println(startLine(simulator, parsed));
    stopped.await();
  }

  /**
   * Starts a simulator from command-line arguments, without installing hooks or exiting; the caller
   * closes it. Throws {@link IllegalArgumentException} naming a bad argument.
   */
  public static CaptchaAiSimulator start(String... args) {
    return start(SimulatorArgs.parse(args));
  }

  private static CaptchaAiSimulator start(SimulatorArgs parsed) {
    return parsed.builder.build().start();
  }

  /** The one line operators read: base URL, key(s), threads and, when not the default, name. */
  static String startLine(CaptchaAiSimulator simulator, SimulatorArgs parsed) {
    String keys =
        parsed.keys.isEmpty()
            ? CaptchaAiSimulator.SANDBOX_KEY
            : String.join(",", parsed.keys.stream().map(ApiHandler::fingerprint).toList());
    return "CaptchaAI simulator ready at "
        + simulator.baseUrl()
        + " key="
        + keys
        + " threads="
        + parsed.threads
        + (CaptchaAiSimulator.Builder.DEFAULT_NAME.equals(simulator.name())
            ? ""
            : " name=" + simulator.name());
  }
}

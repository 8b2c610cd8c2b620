package com.captchajobs.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Command-line options of {@link SimulatorMain}, parsed by picocli. Accepts {@code --name value},
 * {@code --name=value} and the Spring-style {@code --server.port=N} / {@code --server.address=A}.
 * An option not given leaves the {@link CaptchaAiSimulator.Builder}'s default.
 */
@Command(
    name = "captchajobs-simulator",
    customSynopsis = "java -jar captchajobs-simulator.jar [options]",
    sortOptions = false,
    usageHelpWidth = 100)
final class SimulatorArgs {

  /** A bad argument; the message names it. */
  static final class UsageException extends IllegalArgumentException {
    UsageException(String message) {
      super(message);
    }
  }

  /** {@code THRESHOLD:DURATION} of {@code --ip-ban}. */
  record IpBan(int threshold, Duration duration) {}

  /** The last of --port and --server.port given. */
  Integer port;

  /** The last of --address and --server.address given. */
  String address;

  // two options each (not one with two names), so that an error names the one given
  @Option(
      names = "--port",
      order = 1,
      paramLabel = "N",
      description = "port to bind (default 0 = a free port)")
  void port(int port) {
    this.port = port;
  }

  @Option(
      names = "--server.port",
      order = 2,
      paramLabel = "N",
      description = "the same, Spring style")
  void serverPort(int port) {
    this.port = port;
  }

  @Option(
      names = "--address",
      order = 3,
      paramLabel = "A",
      description = "address to bind (default 127.0.0.1)")
  void address(String address) {
    this.address = address;
  }

  @Option(
      names = "--server.address",
      order = 4,
      paramLabel = "A",
      description = "the same, Spring style")
  void serverAddress(String address) {
    this.address = address;
  }

  @Option(
      names = "--key",
      order = 5,
      paramLabel = "K",
      description = "32-character API key (repeatable; default the sandbox key)")
  final List<String> keys = new ArrayList<>();

  @Option(
      names = "--threads",
      order = 6,
      paramLabel = "N",
      description = "threads of each --key (default 5)")
  int threads = CaptchaAiSimulator.Builder.DEFAULT_THREADS;

  @Option(
      names = "--time-scale",
      order = 7,
      paramLabel = "X",
      description = "multiplies every solve time (default 1.0)")
  Double timeScale;

  @Option(
      names = "--seed",
      order = 8,
      paramLabel = "N",
      description = "seed of all randomness (default 1)")
  Long seed;

  @Option(
      names = "--over-cap",
      order = 9,
      paramLabel = "MODE",
      description = "ZERO_BALANCE | NO_SLOT_AVAILABLE | QUEUE")
  OverCapMode overCap;

  @Option(
      names = "--fault",
      order = 10,
      paramLabel = "NAME=P",
      description = "fault probability per call (repeatable), e.g. HTML_502=0.05")
  final Map<Fault, Double> faults = new LinkedHashMap<>();

  @Option(
      names = "--slow-delay",
      order = 11,
      paramLabel = "D",
      converter = DurationConverter.class,
      description = "latency of the SLOW fault: 2s, 500ms or ISO-8601 (PT2S)")
  Duration slowDelay;

  @Option(
      names = "--task-ttl",
      order = 12,
      paramLabel = "D",
      converter = DurationConverter.class,
      description = "how long task ids stay known (default 15m)")
  Duration taskTtl;

  @Option(
      names = "--ip-ban",
      order = 13,
      paramLabel = "N:D",
      converter = IpBanConverter.class,
      description = "bad-key requests before IP_BANNED and ban length (default 5:5m)")
  IpBan ipBan;

  @Option(
      names = "--string-ids",
      order = 14,
      arity = "0..1",
      paramLabel = "true|false",
      fallbackValue = "true",
      description = "JSON task ids always strings")
  Boolean stringIds;

  @Option(
      names = "--pingback-drop",
      order = 15,
      paramLabel = "P",
      description = "share of pingbacks lost on purpose, 0..1 (default 0)")
  Double pingbackDrop;

  @Option(
      names = "--pingback-duplicate",
      order = 16,
      paramLabel = "P",
      description = "share of pingbacks sent twice, 0..1 (default 0)")
  Double pingbackDuplicate;

  @Option(
      names = "--pingback-delay",
      order = 17,
      paramLabel = "D",
      converter = DurationConverter.class,
      description = "delay of every pingback after the answer is ready (default 0)")
  Duration pingbackDelay;

  @Option(
      names = "--pingback-method",
      order = 17,
      paramLabel = "GET|POST",
      description = "GET <url>?id=&code= (default), or POST <url> with the form body id=&code=")
  String pingbackMethod;

  @Option(
      names = "--pingback-registration",
      order = 17,
      arity = "0..1",
      paramLabel = "true|false",
      fallbackValue = "true",
      description = "push only to hosts registered with res.php?action=add_pingback")
  Boolean pingbackRegistration;

  @Option(
      names = "--name",
      order = 18,
      paramLabel = "NAME",
      description = "the provider it plays, in its log lines (default captchaai)")
  String name;

  @Option(
      names = "--price",
      order = 18,
      paramLabel = "TYPE=P",
      description =
          "price per 1,000 solves of a type for each --key (repeatable), e.g. TURNSTILE=1.45;"
              + " default none: billed by threads")
  final Map<String, String> prices = new LinkedHashMap<>();

  @Option(
      names = "--balance",
      order = 18,
      paramLabel = "AMOUNT",
      description = "balance of each --key; 0 refuses every submit (default: unlimited)")
  String balance;

  @Option(names = "--help", order = 19, usageHelp = true, description = "this text")
  boolean help;

  /** The simulator these options describe (not started). */
  final CaptchaAiSimulator.Builder builder = CaptchaAiSimulator.builder();

  static CommandLine commandLine(SimulatorArgs args) {
    return new CommandLine(args)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setOverwrittenOptionsAllowed(true); // the last value wins, as before picocli
  }

  /** The {@code --help} text. */
  static String usage() {
    return commandLine(new SimulatorArgs()).getUsageMessage();
  }

  /**
   * Parses the arguments into a builder.
   *
   * @throws UsageException naming the bad argument
   */
  static SimulatorArgs parse(String... args) {
    SimulatorArgs parsed = new SimulatorArgs();
    try {
      commandLine(parsed).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new UsageException(e.getMessage());
    }
    if (parsed.help) {
      return parsed;
    }
    parsed.configure();
    return parsed;
  }

  private void configure() {
    if (threads < 0) {
      throw new UsageException("--threads must be >= 0, got " + threads);
    }
    for (String key : keys) {
      if (key.length() != 32) {
        throw new UsageException("--key must be 32 characters, got " + key.length());
      }
    }
    apply("--port", port, builder::port);
    apply("--address", address, builder::address);
    apply("--time-scale", timeScale, builder::timeScale);
    apply("--seed", seed, builder::seed);
    apply("--over-cap", overCap, builder::overCapMode);
    faults.forEach((fault, p) -> apply("--fault", p, v -> builder.fault(fault, v)));
    apply("--slow-delay", slowDelay, builder::slowDelay);
    apply("--task-ttl", taskTtl, builder::taskTtl);
    apply("--ip-ban", ipBan, b -> builder.ipBan(b.threshold(), b.duration()));
    apply("--string-ids", stringIds, builder::stringIds);
    apply("--pingback-drop", pingbackDrop, builder::pingbackDrop);
    apply("--pingback-duplicate", pingbackDuplicate, builder::pingbackDuplicate);
    apply("--pingback-delay", pingbackDelay, builder::pingbackDelay);
    apply("--pingback-method", pingbackMethod, builder::pingbackMethod);
    apply("--pingback-registration", pingbackRegistration, builder::pingbackRegistration);
    apply("--name", name, builder::name);
    KeyPlan plan = KeyPlan.threads(threads);
    for (Map.Entry<String, String> price : prices.entrySet()) {
      plan = applied("--price", price.getKey() + "=" + price.getValue(), plan, price);
    }
    if (balance != null) {
      plan = applied("--balance", balance, plan, null);
    }
    KeyPlan each = plan;
    keys.forEach(key -> builder.account(key, each));
    if (keys.isEmpty()) {
      builder.account(CaptchaAiSimulator.SANDBOX_KEY, each);
    }
  }

  /** Adds a price (or, without one, the balance) to the plan, naming the option when invalid. */
  private KeyPlan applied(
      String option, String value, KeyPlan plan, Map.Entry<String, String> price) {
    try {
      return price == null
          ? plan.balance(value)
          : plan.price(price.getKey().strip().toUpperCase(java.util.Locale.ROOT), price.getValue());
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "Invalid value '" + value + "' for " + option + ": " + e.getMessage());
    }
  }

  /** Hands a given value to the builder; the builder's own checks are reported with the option. */
  private static <T> void apply(String option, T value, java.util.function.Consumer<T> setter) {
    if (value == null) {
      return;
    }
    try {
      setter.accept(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "Invalid value '" + value + "' for " + option + ": " + e.getMessage());
    }
  }

  /** {@code THRESHOLD:DURATION}, e.g. {@code 5:5m}. */
  static final class IpBanConverter implements CommandLine.ITypeConverter<IpBan> {
    @Override
    public IpBan convert(String value) {
      int colon = value.indexOf(':');
      if (colon < 0) {
        throw new CommandLine.TypeConversionException(
            "needs THRESHOLD:DURATION, got '" + value + "'");
      }
      try {
        return new IpBan(
            Integer.parseInt(value.substring(0, colon).trim()),
            DurationConverter.parse(value.substring(colon + 1)));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(
            "needs THRESHOLD:DURATION, got '" + value + "'");
      }
    }
  }
}

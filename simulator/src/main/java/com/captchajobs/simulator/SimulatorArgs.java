package com.captchajobs.simulator;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Command-line options of {@link SimulatorMain}. Accepts {@code --name value}, {@code --name=value}
 * and the Spring-style {@code --server.port=N} / {@code --server.address=A}.
 */
final class SimulatorArgs {
  static final String USAGE =
      String.join(
          "\n",
          "Usage: java -jar captchajobs-simulator.jar [options]",
          "  --port N | --server.port=N       port to bind (default 0 = a free port)",
          "  --address A | --server.address=A address to bind (default 127.0.0.1)",
          "  --key K                          32-character API key (repeatable; default the sandbox key)",
          "  --threads N                      threads of each --key (default 5)",
          "  --time-scale X                   multiplies every solve time (default 1.0)",
          "  --seed N                         seed of all randomness (default 1)",
          "  --over-cap MODE                  ZERO_BALANCE | NO_SLOT_AVAILABLE | QUEUE",
          "  --fault NAME=P                   fault probability per call (repeatable), e.g. HTML_502=0.05",
          "  --slow-delay D                   latency of the SLOW fault: 2s, 500ms or ISO-8601 (PT2S)",
          "  --task-ttl D                     how long task ids stay known (default 15m)",
          "  --ip-ban N:D                     bad-key requests before IP_BANNED and ban length (default 5:5m)",
          "  --string-ids                     JSON task ids always strings",
          "  --help                           this text");

  /** A bad argument; the message names it. */
  static final class UsageException extends IllegalArgumentException {
    UsageException(String message) {
      super(message);
    }
  }

  final CaptchaAiSimulator.Builder builder = CaptchaAiSimulator.builder();
  final List<String> keys = new ArrayList<>();
  int threads = CaptchaAiSimulator.Builder.DEFAULT_THREADS;
  boolean help;

  static SimulatorArgs parse(String... args) {
    SimulatorArgs parsed = new SimulatorArgs();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new UsageException("Unexpected argument '" + arg + "': options start with --");
      }
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if (name.equals("--help") || name.equals("--string-ids")) {
        parsed.flag(name, value);
        continue;
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          throw new UsageException("Missing value for " + name);
        }
        value = args[++i];
      }
      parsed.option(name, value);
    }
    parsed.keys.forEach(key -> parsed.builder.account(key, parsed.threads));
    if (parsed.keys.isEmpty()) {
      parsed.builder.account(CaptchaAiSimulator.SANDBOX_KEY, parsed.threads);
    }
    return parsed;
  }

  private void flag(String name, String value) {
    boolean on = value == null || Boolean.parseBoolean(value);
    if (name.equals("--help")) {
      help = on;
    } else {
      builder.stringIds(on);
    }
  }

  private void option(String name, String value) {
    try {
      switch (name) {
        case "--port", "--server.port" -> builder.port(Integer.parseInt(value));
        case "--address", "--server.address" -> builder.address(value);
        case "--key" -> {
          if (value.length() != 32) {
            throw new UsageException("--key must be 32 characters, got " + value.length());
          }
          keys.add(value);
        }
        case "--threads" -> threads = nonNegative(name, Integer.parseInt(value));
        case "--time-scale" -> builder.timeScale(Double.parseDouble(value));
        case "--seed" -> builder.seed(Long.parseLong(value));
        case "--over-cap" ->
            builder.overCapMode(OverCapMode.valueOf(value.toUpperCase(Locale.ROOT)));
        case "--fault" -> fault(value);
        case "--slow-delay" -> builder.slowDelay(duration(name, value));
        case "--task-ttl" -> builder.taskTtl(duration(name, value));
        case "--ip-ban" -> ipBan(value);
        default -> throw new UsageException("Unknown option " + name + " (see --help)");
      }
    } catch (UsageException e) {
      throw e;
    } catch (IllegalArgumentException e) { // NumberFormatException, bad enum, builder checks
      throw new UsageException("Invalid value '" + value + "' for " + name + ": " + e.getMessage());
    }
  }

  private void fault(String value) {
    int eq = value.indexOf('=');
    if (eq < 0) {
      throw new UsageException("--fault needs NAME=PROBABILITY, got '" + value + "'");
    }
    builder.fault(
        Fault.valueOf(value.substring(0, eq).trim().toUpperCase(Locale.ROOT)),
        Double.parseDouble(value.substring(eq + 1)));
  }

  private void ipBan(String value) {
    int colon = value.indexOf(':');
    if (colon < 0) {
      throw new UsageException("--ip-ban needs THRESHOLD:DURATION, got '" + value + "'");
    }
    builder.ipBan(
        Integer.parseInt(value.substring(0, colon)),
        duration("--ip-ban", value.substring(colon + 1)));
  }

  private static int nonNegative(String name, int value) {
    if (value < 0) {
      throw new UsageException(name + " must be >= 0, got " + value);
    }
    return value;
  }

  /** {@code 500ms}, {@code 2s}, {@code 5m}, {@code 1h}, a bare number of seconds, or ISO-8601. */
  static Duration duration(String name, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    try {
      if (v.startsWith("p")) {
        return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
      }
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      }
      if (v.endsWith("s")) {
        return Duration.ofMillis(
            Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
      }
      if (v.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      if (v.endsWith("h")) {
        return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new UsageException(
          "Invalid duration '" + value + "' for " + name + " (use 500ms, 2s, 5m or PT2S)");
    }
  }
}

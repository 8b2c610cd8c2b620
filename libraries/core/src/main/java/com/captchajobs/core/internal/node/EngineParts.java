package com.captchajobs.core.internal.node;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * The parts of a running node, by the node's public handle ({@code CaptchaJobs}): for tests and
 * tools inside the project that look at the engine. Not API, and kept off the public surface: the
 * public handle has no way in, so only code that names this internal class can reach a part.
 */
public final class EngineParts {

  private static final Map<Object, Parts> BY_NODE =
      Collections.synchronizedMap(new WeakHashMap<>());

  private EngineParts() {}

  /** Called once by the node's handle when it is built. */
  public static void register(Object node, Parts parts) {
    BY_NODE.put(node, parts);
  }

  /** The first part of {@code type} of {@code node}, empty when the node has none or is unknown. */
  public static <T> Optional<T> find(Object node, Class<T> type) {
    Parts parts = BY_NODE.get(node);
    return parts == null ? Optional.empty() : parts.find(type);
  }
}

package com.captchajobs.bench;

import com.captchajobs.simulator.CaptchaAiSimulator;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The simulator's own record of each task (acceptance, start, answer-ready instant, polls), read by
 * reflection: its public stats give fetch lag over all types only, and the ready instant is in no
 * table of ours. This is the bench's only reach into simulator internals; when the fields move,
 * {@link #tasks} returns an empty list and the per-type figures read "n/a".
 */
final class SimulatorProbe {

  /** One accepted in.php call as the simulator saw it (epoch millis on the simulator's clock). */
  record TaskView(
      long id,
      String method,
      String pageUrl,
      long acceptedAt,
      long startedAt,
      long readyAt,
      long solveMillis,
      long polls,
      boolean fetched) {}

  private SimulatorProbe() {}

  static List<TaskView> tasks(CaptchaAiSimulator simulator) {
    try {
      Object engine = field(simulator, "engine");
      Map<?, ?> tasks = (Map<?, ?>) field(engine, "tasks");
      List<TaskView> out = new ArrayList<>();
      for (Object t : List.copyOf(tasks.values())) {
        Object submission = field(t, "submission");
        out.add(
            new TaskView(
                (long) field(t, "id"),
                (String) call(submission, "method"),
                (String) call(submission, "pageUrl"),
                (long) field(t, "acceptedAt"),
                (long) field(t, "startedAt"),
                (long) field(t, "readyAt"),
                (long) field(t, "solveMillis"),
                (long) field(t, "polls"),
                (boolean) field(t, "fetched")));
      }
      return out;
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println(
          "[bench] cannot read the simulator's tasks (" + e + "): per-type fetch lag is n/a");
      return List.of();
    }
  }

  private static Object call(Object target, String name) throws ReflectiveOperationException {
    java.lang.reflect.Method m = target.getClass().getDeclaredMethod(name);
    m.setAccessible(true);
    return m.invoke(target);
  }

  private static Object field(Object target, String name) throws ReflectiveOperationException {
    Field f = target.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(target);
  }
}

package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shape of the core, checked on its sources. javac inlines a constant where it is used, so a
 * package that uses only another package's constants depends on it in the source but not in the
 * bytecode that {@link ArchitectureTest} reads. Here a package depends on every core package it
 * imports from (an import only Javadoc uses included) or names in full in its code.
 */
@Tag("unit")
class SourceArchitectureTest {

  private static final Path SOURCES = Path.of("src", "main", "java");

  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

  private static final Pattern IMPORT =
      Pattern.compile(
          "(?m)^import\\s+(?:static\\s+)?(com\\.captchajobs\\.core[\\w.]*?)(\\.\\*)?\\s*;");

  private static final Pattern QUALIFIED =
      Pattern.compile("\\bcom\\.captchajobs\\.core(?:\\.[a-z_]\\w*)*\\.[A-Z]\\w*");

  @Test
  void noPackagesOfTheCoreDependOnEachOtherInACycleInTheSourcesEither() throws IOException {
    Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        read(Files.readString(file), uses);
      }
    }

    assertThat(uses)
        .as("the core's packages, read from %s", SOURCES.toAbsolutePath())
        .containsKeys("com.captchajobs.core", "com.captchajobs.core.internal.engine");
    assertThat(cycles(uses)).as("package cycles in the core's sources").isEmpty();
  }

  @Test
  void aPackageThatUsesOnlyAnotherPackagesConstantDependsOnIt() {
    Map<String, Set<String>> uses = new TreeMap<>();
    read(
        """
        package com.captchajobs.core.internal.gate;

        import com.captchajobs.core.internal.upkeep.NodeLiveness;

        /** Not {@link com.captchajobs.core.internal.push.Pingbacks}, a comment. */
        final class Gate {
          String s = "com.captchajobs.core.internal.ops.Text, a string";
          int space = NodeLiveness.LOCK_SPACE;
          Object o = com.captchajobs.core.internal.store.Db.class;
        }
        """,
        uses);
    read(
        """
        package com.captchajobs.core.internal.upkeep;

        import static com.captchajobs.core.internal.gate.Gate.SLOTS;
        """,
        uses);

    assertThat(uses.get("com.captchajobs.core.internal.gate"))
        .containsExactlyInAnyOrder(
            "com.captchajobs.core.internal.upkeep", "com.captchajobs.core.internal.store");
    assertThat(cycles(uses))
        .containsExactly(
            List.of("com.captchajobs.core.internal.gate", "com.captchajobs.core.internal.upkeep"));
  }

  /** Adds what the source of one file depends on to {@code uses}, by package. */
  private static void read(String source, Map<String, Set<String>> uses) {
    Matcher declared = PACKAGE.matcher(source);
    assertThat(declared.find()).as("a package declaration").isTrue();
    String own = declared.group(1);
    Set<String> targets = uses.computeIfAbsent(own, p -> new TreeSet<>());
    Matcher imported = IMPORT.matcher(source);
    while (imported.find()) {
      targets.add(
          imported.group(2) != null && isPackage(imported.group(1))
              ? imported.group(1)
              : packageOf(imported.group(1)));
    }
    Matcher named = QUALIFIED.matcher(codeOnly(source));
    while (named.find()) {
      targets.add(packageOf(named.group()));
    }
    targets.remove(own);
  }

  private static boolean isPackage(String name) {
    return name.chars().noneMatch(Character::isUpperCase);
  }

  /** The segments of a qualified name before its first type (a name that starts upper case). */
  private static String packageOf(String name) {
    List<String> segments = new ArrayList<>();
    for (String segment : name.split("\\.")) {
      if (Character.isUpperCase(segment.charAt(0))) {
        break;
      }
      segments.add(segment);
    }
    return String.join(".", segments);
  }

  /** The source without comments, string and character literals (text blocks included). */
  private static String codeOnly(String source) {
    StringBuilder code = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      if (source.startsWith("//", i)) {
        i = source.indexOf('\n', i) < 0 ? n : source.indexOf('\n', i);
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        i = end < 0 ? n : end + 3;
        code.append("\"\"");
      } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
        char quote = source.charAt(i++);
        while (i < n && source.charAt(i) != quote) {
          i += source.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
        code.append(quote).append(quote);
      } else {
        code.append(source.charAt(i++));
      }
    }
    return code.toString();
  }

  /** The cycles (strongly connected groups of two or more packages), each sorted (Tarjan). */
  private static List<List<String>> cycles(Map<String, Set<String>> uses) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<List<String>> cycles = new ArrayList<>();
    for (String p : uses.keySet()) {
      if (!index.containsKey(p)) {
        connect(p, uses, index, low, stack, onStack, cycles);
      }
    }
    return cycles;
  }

  private static void connect(
      String p,
      Map<String, Set<String>> uses,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Set<String> onStack,
      List<List<String>> cycles) {
    index.put(p, index.size());
    low.put(p, index.get(p));
    stack.push(p);
    onStack.add(p);
    for (String q : uses.getOrDefault(p, Set.of())) {
      if (!index.containsKey(q)) {
        connect(q, uses, index, low, stack, onStack, cycles);
        low.put(p, Math.min(low.get(p), low.get(q)));
      } else if (onStack.contains(q)) {
        low.put(p, Math.min(low.get(p), index.get(q)));
      }
    }
    if (low.get(p).equals(index.get(p))) {
      List<String> group = new ArrayList<>();
      String q;
      do {
        q = stack.pop();
        onStack.remove(q);
        group.add(q);
      } while (!q.equals(p));
      if (group.size() > 1) {
        group.sort(null);
        cycles.add(group);
      }
    }
  }
}

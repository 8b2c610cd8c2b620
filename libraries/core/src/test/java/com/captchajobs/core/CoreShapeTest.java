package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The size rules of the core (docs/architecture.md), read from its sources so that a change that
 * breaks one fails here rather than in a later count: no main file over 350 lines, a test of its
 * own beside every class over 200, at most 8 files in a package under {@code internal}, the public
 * entry at most 200 lines, no web server and nothing deprecated.
 */
@Tag("unit")
class CoreShapeTest {

  private static final Path MAIN = Path.of("src", "main", "java");
  private static final Path TESTS = Path.of("src", "test", "java");

  @Test
  void noMainFileOfTheCoreIsOver350Lines() throws IOException {
    Map<String, Integer> over = new TreeMap<>();
    for (Path file : javaFiles(MAIN)) {
      int lines = lines(file);
      if (lines > 350) {
        over.put(MAIN.relativize(file).toString(), lines);
      }
    }
    assertThat(javaFiles(MAIN))
        .as("the core's main sources in %s", MAIN.toAbsolutePath())
        .isNotEmpty();
    assertThat(over).as("main files over 350 lines").isEmpty();
  }

  @Test
  void everyClassOver200LinesHasATestOfItsOwn() throws IOException {
    List<String> testNames =
        javaFiles(TESTS).stream().map(f -> f.getFileName().toString()).toList();
    List<String> untested = new java.util.ArrayList<>();
    for (Path file : javaFiles(MAIN)) {
      String name = file.getFileName().toString().replace(".java", "");
      if (lines(file) > 200 && !testNames.contains(name + "Test.java")) {
        untested.add(name);
      }
    }
    assertThat(untested).as("classes over 200 lines without a <Name>Test").isEmpty();
  }

  @Test
  void noPackageUnderInternalHoldsMoreThanEightFiles() throws IOException {
    Map<Path, Long> perPackage =
        javaFiles(MAIN.resolve(Path.of("com", "captchajobs", "core", "internal"))).stream()
            .collect(Collectors.groupingBy(Path::getParent, TreeMap::new, Collectors.counting()));
    assertThat(perPackage).as("files per package under internal").isNotEmpty();
    assertThat(perPackage.entrySet().stream().filter(e -> e.getValue() > 8).toList())
        .as("packages under internal with more than 8 files")
        .isEmpty();
  }

  @Test
  void thePublicEntryStaysShortAndTheCoreServesNoHttpAndDeprecatesNothing() throws IOException {
    assertThat(lines(MAIN.resolve(Path.of("com", "captchajobs", "core", "CaptchaJobs.java"))))
        .as("CaptchaJobs.java lines")
        .isLessThanOrEqualTo(200);
    for (Path file : javaFiles(MAIN)) {
      String source = Files.readString(file);
      assertThat(source).as("%s", file).doesNotContain("com.sun.net.httpserver");
      assertThat(source).as("%s", file).doesNotContain("@Deprecated");
    }
  }

  private static List<Path> javaFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
  }

  private static int lines(Path file) throws IOException {
    try (Stream<String> lines = Files.lines(file)) {
      return (int) lines.count();
    }
  }
}

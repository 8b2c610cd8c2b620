package com.captchajobs.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code --worker-cds}: workers started the way Spring Boot documents for a faster start (see
 * "Starting workers faster" in docs/operations.md). The worker jar is extracted once ({@code java
 * -Djarmode=tools -jar captchajobs-worker.jar extract}: the same classes, from a flat class path
 * instead of jars nested in the jar), and one training start that exits once its context is
 * refreshed ({@code -Dspring.context.exit=onRefresh}) writes a class-data archive ({@code
 * -XX:ArchiveClassesAtExit}), which every worker then maps ({@code -XX:SharedArchiveFile}) instead
 * of loading and verifying the same classes again. All of it happens before the run: the training
 * start sees the run's database and simulator, no solve yet, and is not one of the run's workers.
 */
final class WorkerCds {

  /** The longest the training start may take. */
  static final Duration TRAINING = Duration.ofMinutes(3);

  private WorkerCds() {}

  /**
   * The launch of {@code launch}'s worker jar extracted into {@code dir}, with the archive a
   * training start wrote there.
   *
   * @throws IllegalStateException when there is no worker jar (a class-path launch) or the training
   *     start did not write an archive
   */
  static WorkerJvm.Launch prepare(WorkerJvm.Launch launch, Path dir) {
    Path jar = launch.workerJar();
    if (jar == null) {
      throw new IllegalStateException("--worker-cds needs the worker jar (--worker-jar)");
    }
    Path extracted = dir.resolve("extracted");
    Path archive = dir.resolve("worker.jsa");
    deleteRecursively(dir);
    extract(jar, extracted);
    Path flat = extracted.resolve(jar.getFileName());
    WorkerJvm training =
        WorkerJvm.start(
            "bench-cds-training",
            launch.from(
                flat,
                List.of("-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh")));
    int exit = training.awaitExit(TRAINING);
    if (exit != 0 || !Files.isRegularFile(archive)) {
      training.kill();
      throw new IllegalStateException(
          "the training start of --worker-cds exited with "
              + exit
              + " and wrote no archive; see "
              + training.log().toAbsolutePath());
    }
    return launch.from(flat, List.of("-XX:SharedArchiveFile=" + archive));
  }

  private static void extract(Path jar, Path into) {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Djarmode=tools",
            "-jar",
            jar.toAbsolutePath().toString(),
            "extract",
            "--destination",
            into.toString());
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (process.waitFor() != 0) {
        throw new IllegalStateException("could not extract " + jar + ": " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not extract " + jar, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while extracting " + jar, e);
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not empty " + dir, e);
    }
  }
}

package com.captchajobs.worker.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * How the tests start the worker's runnable jar on the Java running them, at less CPU per start:
 * extracted once ({@code java -Djarmode=tools -jar captchajobs-worker.jar extract}, Spring Boot's
 * documented layout: the same classes and {@code java -jar}, from a flat class path instead of jars
 * nested in the jar) and with an application class-data archive (Java 17's dynamic AppCDS), which
 * the first node started writes when it stops and every later one maps instead of loading and
 * verifying the same classes again. One worker-node start took 7.0 CPU-s from the fat jar, 5.2
 * extracted and 4.1 with the archive; the node that writes it 11.7 (2026-12-05, see
 * docs/testing.md).
 *
 * <p>The extraction and the archive sit beside the jar ({@code captchajobs-worker.jar.cds/}),
 * shared by every test JVM of the build under a file lock, and are made again when the jar changes.
 * A node killed before it wrote the archive leaves the next start to write it. The fat jar itself
 * is still started as operators start it by the README fleet's and the dashboard node's tests.
 */
final class WorkerJarLaunch {

  /** Threads of this JVM; the file lock keeps out the other test JVMs. */
  private static final Object LOCK = new Object();

  /** What to put after {@code java}, and the archive this start writes when it stops (or null). */
  record Launch(List<String> args, Path writes) {

    /**
     * After the node stopped: its archive is kept only when it stopped on its own and wrote one.
     */
    void stopped(Path jar, boolean cleanly) {
      if (writes == null) {
        return;
      }
      Path home = homeOf(jar);
      try {
        if (cleanly && Files.size(writes) > 0) {
          Files.move(writes, home.resolve("worker.jsa"), StandardCopyOption.ATOMIC_MOVE);
        }
      } catch (IOException e) {
        // no archive this time: the next start writes it
      } finally {
        deleteQuietly(writes);
        deleteQuietly(home.resolve("writing"));
      }
    }
  }

  private WorkerJarLaunch() {}

  /** The launch of {@code jar} on the Java running this test. */
  static Launch of(Path jar) {
    Path home = homeOf(jar);
    synchronized (LOCK) {
      try {
        Files.createDirectories(home);
        try (FileChannel channel =
                FileChannel.open(
                    home.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.lock()) {
          Path extracted = home.resolve("extracted");
          Path stamp = home.resolve("stamp");
          String built = Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis();
          if (!Files.exists(stamp) || !Files.readString(stamp).equals(built)) {
            deleteQuietly(home.resolve("worker.jsa"));
            deleteQuietly(home.resolve("writing"));
            deleteRecursively(extracted);
            extract(jar, extracted);
            Files.writeString(stamp, built);
          }
          String launchJar = extracted.resolve(jar.getFileName()).toString();
          Path archive = home.resolve("worker.jsa");
          if (Files.exists(archive)) {
            return new Launch(List.of("-XX:SharedArchiveFile=" + archive, "-jar", launchJar), null);
          }
          if (Files.notExists(home.resolve("writing"))) {
            Files.createFile(home.resolve("writing")); // one writer at a time
            Path writes = home.resolve("worker.jsa." + UUID.randomUUID());
            return new Launch(
                List.of("-XX:ArchiveClassesAtExit=" + writes, "-jar", launchJar), writes);
          }
          return new Launch(List.of("-jar", launchJar), null);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static Path homeOf(Path jar) {
    Path absolute = jar.toAbsolutePath().normalize();
    return absolute.resolveSibling(absolute.getFileName() + ".cds");
  }

  private static void extract(Path jar, Path into) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(WorkerProcess.currentJava().toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Djarmode=tools");
    command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
    command.addAll(List.of("extract", "--destination", into.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    try {
      if (process.waitFor() != 0) {
        throw new IllegalStateException("could not extract " + jar + ": " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted extracting " + jar, e);
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException ignored) {
      // a later start tries again
    }
  }
}

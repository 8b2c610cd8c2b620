package com.captchajobs.worker.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * How the tests start a worker node on the Java running them, at less CPU per start: with an
 * application class-data archive (Java 17's dynamic AppCDS), which the first node started writes
 * when it stops and every later one maps instead of loading and verifying the same classes again.
 *
 * <p>Two shapes of start. The worker's runnable jar is extracted once ({@code java -Djarmode=tools
 * -jar captchajobs-worker.jar extract}, Spring Boot's documented layout: the same classes and
 * {@code java -jar}, from a flat class path instead of jars nested in the jar): one start took 7.0
 * CPU-s from the fat jar, 5.2 extracted and 4.1 with the archive; the node that writes it 11.7
 * (2026-12-05, see docs/testing.md). The worker's main class on the test's class path gets the same
 * class path, with each directory on it ({@code target/classes}, {@code target/test-classes})
 * copied into a jar of its own, byte for byte: Java 17 archives no class path that holds a
 * non-empty directory.
 *
 * <p>The extraction or the jars and the archive sit in a directory of their own (beside the jar,
 * {@code captchajobs-worker.jar.cds/}, or under {@code target/worker-classpath.cds/}), shared by
 * every test JVM of the build under a file lock, and are made again when what they were made from
 * changes. A node killed before it wrote the archive leaves the next start to write it. The fat jar
 * itself is still started as operators start it by the README fleet's and the dashboard node's
 * tests.
 */
final class WorkerJarLaunch {

  /** Threads of this JVM; the file lock keeps out the other test JVMs. */
  private static final Object LOCK = new Object();

  /**
   * What to put after {@code java}, the archive this start writes when it stops (or null), and the
   * directory the archive belongs in.
   */
  record Launch(List<String> args, Path writes, Path home) {

    /** A start without an archive. */
    static Launch plain(List<String> args) {
      return new Launch(args, null, null);
    }

    /**
     * After the node stopped: its archive is kept only when it stopped on its own and wrote one.
     */
    void stopped(boolean cleanly) {
      if (writes == null) {
        return;
      }
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

  /** Makes what the start runs from into a directory of its own, emptied before. */
  private interface Preparation {
    void prepare(Path into) throws IOException;
  }

  private WorkerJarLaunch() {}

  /** The launch of {@code jar} on the Java running this test. */
  static Launch of(Path jar) {
    Path absolute = jar.toAbsolutePath().normalize();
    Path home = absolute.resolveSibling(absolute.getFileName() + ".cds");
    try {
      String built = Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis();
      Path launchJar = home.resolve("extracted").resolve(jar.getFileName());
      return launch(
          home,
          built,
          "extracted",
          into -> extract(jar, into),
          List.of("-jar", launchJar.toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The launch of {@code mainClass} from {@code classPath} (entries split by the path separator) on
   * the Java running this test, its directories as jars under {@code
   * target/worker-classpath.cds/<key>/}, one key per class path.
   */
  static Launch ofClassPath(String classPath, String mainClass) {
    // one directory per class path: the worker's own run of a named test has another than its
    // tests' module (tests/worker-test) has
    String key = Integer.toHexString(classPath.hashCode());
    Path home = Path.of("target", "worker-classpath.cds", key).toAbsolutePath();
    String[] entries = classPath.split(File.pathSeparator);
    List<Path> directories = new ArrayList<>();
    List<String> launchPath = new ArrayList<>();
    StringBuilder built = new StringBuilder(classPath);
    try {
      for (String entry : entries) {
        Path path = Path.of(entry);
        if (Files.isDirectory(path)) {
          Path asJar = home.resolve("jars").resolve(directories.size() + ".jar");
          directories.add(path);
          launchPath.add(asJar.toString());
          built.append('\n').append(fingerprint(path));
        } else {
          launchPath.add(entry);
        }
      }
      Preparation jars =
          into -> {
            for (int i = 0; i < directories.size(); i++) {
              jar(directories.get(i), into.resolve(i + ".jar"));
            }
          };
      return launch(
          home,
          built.toString(),
          "jars",
          jars,
          List.of("-cp", String.join(File.pathSeparator, launchPath), mainClass));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Under the lock: prepares {@code home/contentsName} again when {@code built} changed (the
   * archive goes with it), then starts with the archive, as its writer, or (while another node
   * writes it) without one.
   */
  private static Launch launch(
      Path home, String built, String contentsName, Preparation preparation, List<String> run)
      throws IOException {
    synchronized (LOCK) {
      Files.createDirectories(home);
      try (FileChannel channel =
              FileChannel.open(
                  home.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        Path stamp = home.resolve("stamp");
        if (!Files.exists(stamp) || !Files.readString(stamp).equals(built)) {
          deleteQuietly(home.resolve("worker.jsa"));
          deleteQuietly(home.resolve("writing"));
          Path contents = home.resolve(contentsName);
          deleteRecursively(contents);
          preparation.prepare(contents);
          Files.writeString(stamp, built);
        }
        Path archive = home.resolve("worker.jsa");
        List<String> args = new ArrayList<>();
        Path writes = null;
        if (Files.exists(archive)) {
          args.add("-XX:SharedArchiveFile=" + archive);
        } else if (Files.notExists(home.resolve("writing"))) {
          Files.createFile(home.resolve("writing")); // one writer at a time
          writes = home.resolve("worker.jsa." + UUID.randomUUID());
          args.add("-XX:ArchiveClassesAtExit=" + writes);
        }
        args.addAll(run);
        return new Launch(List.copyOf(args), writes, home);
      }
    }
  }

  /** Every file's name, size and time of change: a directory rebuilt reads differently. */
  private static String fingerprint(Path dir) throws IOException {
    StringBuilder print = new StringBuilder(dir.toString());
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted().toList()) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        if (a.isRegularFile()) {
          print.append('|').append(dir.relativize(p)).append(' ').append(a.size()).append(' ');
          print.append(a.lastModifiedTime().toMillis());
        }
      }
    }
    return print.toString();
  }

  /** The directory as a jar, with its directory entries (Spring scans packages through them). */
  private static void jar(Path dir, Path jar) throws IOException {
    Files.createDirectories(jar.getParent());
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file);
        Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted().toList()) {
        if (p.equals(dir)) {
          continue;
        }
        String name = dir.relativize(p).toString().replace(File.separatorChar, '/');
        if (Files.isDirectory(p)) {
          out.putNextEntry(new JarEntry(name + "/"));
        } else {
          out.putNextEntry(new JarEntry(name));
          Files.copy(p, out);
        }
        out.closeEntry();
      }
    }
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

package com.captchajobs.worker.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;

/**
 * Whether the worker's runnable jar holds the classes this test runs against: it is newer than
 * every one of the project's entries on the test's class path (the {@code target/classes} of the
 * worker, the core and the rest, or their {@code captchajobs-*} jars), so a class compiled or a
 * module installed after the jar was made sends the tests back to the class path.
 */
final class BuiltJar {

  /** The runnable jar as the worker module's build names it, seen from the worker's directory. */
  static final Path WORKER = Path.of("target", "captchajobs-worker.jar");

  private BuiltJar() {}

  static boolean isCurrent(Path jar) {
    if (!Files.isRegularFile(jar)) {
      return false;
    }
    try {
      FileTime built = Files.getLastModifiedTime(jar);
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        Path path = Path.of(entry);
        boolean ours =
            path.endsWith(Path.of("target", "classes"))
                || path.getFileName().toString().startsWith("captchajobs-");
        if (ours && Files.exists(path) && newestIn(path).compareTo(built) > 0) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static FileTime newestIn(Path path) throws IOException {
    try (Stream<Path> files = Files.walk(path)) {
      FileTime newest = FileTime.fromMillis(0);
      for (Path file : (Iterable<Path>) files::iterator) {
        FileTime modified = Files.getLastModifiedTime(file);
        if (modified.compareTo(newest) > 0) {
          newest = modified;
        }
      }
      return newest;
    }
  }
}

package com.captchajobs.core.internal.jobrunr;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.jobrunr.jobs.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobRunr versions CaptchaJobs runs on. A host application's JobRunr wins Maven's version
 * mediation over ours, so the JobRunr on the class path may not be the one we were built with: one
 * outside the tested range is refused at startup, naming both versions.
 */
public final class SupportedJobRunr {

  private static final Logger log = LoggerFactory.getLogger(SupportedJobRunr.class);
  private static final Properties RANGE = load();

  private SupportedJobRunr() {}

  /** The JobRunr version CaptchaJobs was built and released with. */
  public static String builtWith() {
    return RANGE.getProperty("built-with");
  }

  /** The lowest tested version, inclusive. */
  public static String testedFrom() {
    return RANGE.getProperty("tested-from");
  }

  /** The first version above the tested range. */
  public static String testedBelow() {
    return RANGE.getProperty("tested-below");
  }

  /**
   * @throws IllegalStateException naming the JobRunr found and the tested range when the JobRunr on
   *     the class path is outside it
   */
  public static void require() {
    require(Job.class.getPackage().getImplementationVersion());
  }

  static void require(String found) {
    if (found == null) {
      log.warn(
          "Could not tell the version of the JobRunr on the class path (no Implementation-Version"
              + " in its manifest); CaptchaJobs is tested with JobRunr {} up to below {}",
          testedFrom(),
          testedBelow());
      return;
    }
    if (!isSupported(found)) {
      throw new IllegalStateException(
          ("CaptchaJobs needs JobRunr %s or later, below %s (built with %s), but the class path has"
                  + " JobRunr %s. Align org.jobrunr:jobrunr (or your JobRunr Spring Boot starter)"
                  + " with a version in that range; see docs/platforms.md.")
              .formatted(testedFrom(), testedBelow(), builtWith(), found));
    }
  }

  static boolean isSupported(String version) {
    return compare(version, testedFrom()) >= 0 && compare(version, testedBelow()) < 0;
  }

  /** Compares dotted numeric versions; a qualifier ({@code 8.8.0-RC1}) counts as its numbers. */
  static int compare(String a, String b) {
    int[] x = numbers(a);
    int[] y = numbers(b);
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int d = Integer.compare(i < x.length ? x[i] : 0, i < y.length ? y[i] : 0);
      if (d != 0) {
        return d;
      }
    }
    return 0;
  }

  private static int[] numbers(String version) {
    String[] parts = version.split("[^0-9]+", -1);
    return java.util.Arrays.stream(parts)
        .filter(p -> !p.isEmpty())
        .limit(3)
        .mapToInt(Integer::parseInt)
        .toArray();
  }

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in =
        SupportedJobRunr.class.getResourceAsStream("supported-jobrunr.properties")) {
      if (in == null) {
        throw new IllegalStateException(
            "supported-jobrunr.properties is missing from the core jar");
      }
      p.load(in);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

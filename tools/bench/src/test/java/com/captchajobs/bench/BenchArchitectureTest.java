package com.captchajobs.bench;

import static com.captchajobs.core.testing.PublicCoreOnly.mainClassesOf;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassReachesIntoTheEngine;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassUsesTheCoresInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The bench drives CaptchaJobs as an application would: through the core's public API only. */
@Tag("unit")
class BenchArchitectureTest {

  static final JavaClasses MAIN = mainClassesOf("com.captchajobs.bench");

  @Test
  void theBenchUsesNoInternalTypeOfTheCore() {
    noClassUsesTheCoresInternals().check(MAIN);
  }

  @Test
  void theBenchNeverReachesIntoTheEngine() {
    noClassReachesIntoTheEngine().check(MAIN);
  }

  @Test
  void theBenchsUnitTestsStartNothing() {
    com.captchajobs.core.testing.UnitTier.startsNothing()
        .check(com.captchajobs.core.testing.UnitTier.testClassesOf("com.captchajobs.bench"));
  }
}

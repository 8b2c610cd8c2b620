package com.captchajobs.worker;

import static com.captchajobs.core.testing.PublicCoreOnly.mainClassesOf;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassReachesIntoTheEngine;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassUsesTheCoresInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The worker node uses the core through its public API only (its tests may look inside). */
@Tag("unit")
class WorkerArchitectureTest {

  static final JavaClasses MAIN = mainClassesOf("com.captchajobs.worker");

  @Test
  void theWorkerNodeUsesNoInternalTypeOfTheCore() {
    noClassUsesTheCoresInternals().check(MAIN);
  }

  @Test
  void theWorkerNodeNeverReachesIntoTheEngine() {
    noClassReachesIntoTheEngine().check(MAIN);
  }

  @Test
  void theWorkerNodesUnitTestsStartNothing() {
    com.captchajobs.core.testing.UnitTier.startsNothing()
        .check(com.captchajobs.core.testing.UnitTier.testClassesOf("com.captchajobs.worker"));
  }
}

package com.captchajobs.dashboard;

import static com.captchajobs.core.testing.PublicCoreOnly.mainClassesOf;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassReachesIntoTheEngine;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassUsesTheCoresInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The dashboard node uses the core through its public API only. */
@Tag("unit")
class DashboardArchitectureTest {

  static final JavaClasses MAIN = mainClassesOf("com.captchajobs.dashboard");

  @Test
  void theDashboardNodeUsesNoInternalTypeOfTheCore() {
    noClassUsesTheCoresInternals().check(MAIN);
  }

  @Test
  void theDashboardNodeNeverReachesIntoTheEngine() {
    noClassReachesIntoTheEngine().check(MAIN);
  }

  @Test
  void theDashboardNodesUnitTestsStartNothing() {
    com.captchajobs.core.testing.UnitTier.startsNothing()
        .check(com.captchajobs.core.testing.UnitTier.testClassesOf("com.captchajobs.dashboard"));
  }
}

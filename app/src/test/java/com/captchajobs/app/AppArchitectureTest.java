package com.captchajobs.app;

import static com.captchajobs.core.testing.PublicCoreOnly.mainClassesOf;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassReachesIntoTheEngine;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassUsesTheCoresInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The app node (and node-security, which has no tests of its own) uses the core through its public
 * API only.
 */
@Tag("unit")
class AppArchitectureTest {

  static final JavaClasses MAIN = mainClassesOf("com.captchajobs.app", "com.captchajobs.node");

  @Test
  void theAppNodeUsesNoInternalTypeOfTheCore() {
    noClassUsesTheCoresInternals().check(MAIN);
  }

  @Test
  void theAppNodeNeverReachesIntoTheEngine() {
    noClassReachesIntoTheEngine().check(MAIN);
  }

  @Test
  void theAppNodesUnitTestsStartNothing() {
    com.captchajobs.core.testing.UnitTier.startsNothing()
        .check(com.captchajobs.core.testing.UnitTier.testClassesOf("com.captchajobs.app"));
  }
}

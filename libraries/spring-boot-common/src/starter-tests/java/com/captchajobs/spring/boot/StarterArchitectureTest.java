package com.captchajobs.spring.boot;

import static com.captchajobs.core.testing.PublicCoreOnly.noClassReachesIntoTheEngine;
import static com.captchajobs.core.testing.PublicCoreOnly.noClassUsesTheCoresInternals;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.captchajobs.core.testing.OurClasses;
import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The starter wires the core and nothing else: no node, no JobRunr bean types of its own. */
@Tag("unit")
class StarterArchitectureTest {

  static final JavaClasses STARTER = OurClasses.main("com.captchajobs.spring");

  @Test
  void theStarterImportsNoNode() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "com.captchajobs.app..",
            "com.captchajobs.worker..",
            "com.captchajobs.dashboard..",
            "com.captchajobs.bench..",
            "com.captchajobs.simulator..")
        .check(STARTER);
  }

  @Test
  void theStarterNeverTouchesJobRunrDirectly() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("org.jobrunr..").check(STARTER);
  }

  @Test
  void theStarterUsesNoInternalTypeOfTheCore() {
    noClassUsesTheCoresInternals().check(STARTER);
  }

  @Test
  void theStarterNeverReachesIntoTheEngine() {
    noClassReachesIntoTheEngine().check(STARTER);
  }

  @Test
  void noPackagesOfTheStarterDependOnEachOtherInACycle() {
    slices().matching("com.captchajobs.(**)").should().beFreeOfCycles().check(STARTER);
  }

  @Test
  void theStartersUnitTestsStartNothing() {
    com.captchajobs.core.testing.UnitTier.startsNothing()
        .check(com.captchajobs.core.testing.UnitTier.testClassesOf("com.captchajobs.spring"));
  }
}

package com.captchajobs.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The shape of the core, checked on its compiled classes. */
@Tag("unit")
class ArchitectureTest {

  static final JavaClasses CORE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("com.captchajobs.core");

  @Test
  void theCoreImportsNoSpring() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.springframework..")
        .check(CORE);
  }

  @Test
  void theCoreImportsNeitherTheStarterNorANode() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "com.captchajobs.spring..",
            "com.captchajobs.app..",
            "com.captchajobs.worker..",
            "com.captchajobs.dashboard..",
            "com.captchajobs.bench..",
            "com.captchajobs.console..",
            "com.captchajobs.simulator..")
        .check(CORE);
  }

  @Test
  void theCoreServesNoHttp() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.sun.net.httpserver..", "org.jobrunr.dashboard..")
        .because("the dashboard and the console are captchajobs-console's (DashboardServing)")
        .check(CORE);
    noClasses()
        .should()
        .resideInAPackage("..console..")
        .because("the operator console is captchajobs-console's")
        .check(CORE);
  }

  @Test
  void theClientDependsOnNothingElseOfTheCore() {
    noClasses()
        .that()
        .resideInAPackage("com.captchajobs.core.client..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.captchajobs.core", "com.captchajobs.core.internal..")
        .check(CORE);
  }

  @Test
  void theSettingsDependOnNothingElseOfTheCoreButTheClient() {
    noClasses()
        .that()
        .resideInAPackage("com.captchajobs.core.settings..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.captchajobs.core", "com.captchajobs.core.internal..")
        .check(CORE);
  }

  @Test
  void theEngineDoesNotDependOnThePublicApi() {
    noClasses()
        .that()
        .resideInAPackage("com.captchajobs.core.internal..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.captchajobs.core")
        .check(CORE);
  }

  @Test
  void noPackagesOfTheCoreDependOnEachOtherInACycle() {
    slices().matching("com.captchajobs.(**)").should().beFreeOfCycles().check(CORE);
  }
}

package com.captchajobs.console;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.dashboard.DashboardServing;
import com.captchajobs.core.testing.OurClasses;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shape of captchajobs-console: the core's companion, released with it, the one module beside
 * the core that reads the engine's internal parts, and only those the dashboard shows and acts on
 * (solves, requeues, breakers).
 */
@Tag("unit")
class ConsoleArchitectureTest {

  static final JavaClasses CONSOLE = OurClasses.main("com.captchajobs.console");

  @Test
  void theConsoleImportsNeitherSpringNorTheStarterNorANode() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.springframework..",
            "com.captchajobs.spring..",
            "com.captchajobs.app..",
            "com.captchajobs.worker..",
            "com.captchajobs.dashboard..",
            "com.captchajobs.bench..")
        .check(CONSOLE);
  }

  @Test
  void theConsoleReadsOnlyTheEngineRoomsTheDashboardShowsAndActsOn() {
    noClasses()
        .should()
        .dependOnClassesThat(
            resideInAPackage("com.captchajobs.core.internal..")
                .and(
                    not(
                        resideInAnyPackage(
                            "com.captchajobs.core.internal.dashboard",
                            "com.captchajobs.core.internal.node",
                            "com.captchajobs.core.internal.ops",
                            "com.captchajobs.core.internal.steps",
                            "com.captchajobs.core.internal.provider",
                            "com.captchajobs.core.internal.db"))))
        .check(CONSOLE);
  }

  @Test
  void theServerKnowsNothingOfTheCoreNorOfTheConsolesPages() {
    noClasses()
        .that()
        .resideInAPackage("com.captchajobs.console.server..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.captchajobs.core..", "com.captchajobs.console")
        .check(CONSOLE);
  }

  @Test
  void theCoreFindsTheConsolesDashboardWithTheServiceLoader() {
    assertThat(ServiceLoader.load(DashboardServing.class).stream().map(p -> p.type().getName()))
        .containsExactly(ConsoleDashboard.class.getName());
    assertThat(DashboardServing.require()).isInstanceOf(ConsoleDashboard.class);
  }
}

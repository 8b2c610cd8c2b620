package com.captchajobs.core.client;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The client on its own: it keeps the core's package name ({@code com.captchajobs.core.client}), so
 * nothing but this rule stops it from reaching back into the engine it sits below.
 */
@Tag("unit")
class ClientArchitectureTest {

  static final JavaClasses CLIENT =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("com.captchajobs.core.client");

  @Test
  void theRulesSeeTheClientsOwnClasses() {
    assertThat(CLIENT.contain(CaptchaAiClient.class)).isTrue();
    assertThat(CLIENT.contain(ClientArchitectureTest.class)).isFalse();
  }

  @Test
  void theClientImportsNothingOfTheCoreOutsideItsOwnPackage() {
    noClasses()
        .that()
        .resideInAPackage("com.captchajobs.core.client..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("com.captchajobs..")
                .and(not(resideInAPackage("com.captchajobs.core.client.."))))
        .check(CLIENT);
  }

  @Test
  void theClientNeedsNoJobRunrNoDatabaseAndNoSpring() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.jobrunr..", "java.sql..", "javax.sql..", "org.springframework..")
        .check(CLIENT);
  }
}

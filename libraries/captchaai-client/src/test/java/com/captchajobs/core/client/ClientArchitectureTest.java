package com.captchajobs.core.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The client on its own. What it may use of CaptchaJobs, JobRunr or Spring its module's
 * dependencies decide (none, so the compiler keeps them out); what the JDK itself offers they do
 * not, and a database is none of the client's business.
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
  void theClientTouchesNoDatabase() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "javax.sql..")
        .check(CLIENT);
  }
}

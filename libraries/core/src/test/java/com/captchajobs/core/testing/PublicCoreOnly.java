package com.captchajobs.core.testing;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.captchajobs.core.CaptchaJobs;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The rules every module outside the core keeps in its main code (the starters, the nodes, the
 * bench): it uses the core through its public packages only, never a type of {@code
 * com.captchajobs.core.internal} or of captchajobs-console ({@code com.captchajobs.console}), and
 * never reaches in with {@link CaptchaJobs#part} or {@link CaptchaJobs#worker}. Each module checks
 * its own main classes with them.
 */
public final class PublicCoreOnly {

  /** The core's internal packages. */
  public static final String INTERNALS = "com.captchajobs.core.internal..";

  /**
   * The packages of captchajobs-console, which the core finds by itself when the dashboard is on: a
   * module that uses them depends on the core's internals through them.
   */
  public static final String CONSOLE = "com.captchajobs.console..";

  private PublicCoreOnly() {}

  /** The main classes (never tests) found under the packages on the class path. */
  public static JavaClasses mainClassesOf(String... packages) {
    return OurClasses.main(packages);
  }

  /**
   * No class depends on a type of the core's internal packages or of captchajobs-console, but the
   * named ones.
   */
  public static ArchRule noClassUsesTheCoresInternals(String... allowedForNow) {
    DescribedPredicate<JavaClass> internal = resideInAnyPackage(INTERNALS, CONSOLE);
    if (allowedForNow.length > 0) {
      internal =
          internal.and(
              not(
                  nameMatching(
                      String.join("|", Stream.of(allowedForNow).map(Pattern::quote).toList()))));
    }
    return noClasses()
        .should()
        .dependOnClassesThat(internal)
        .because("the core's internal types may change at any time; use its public API");
  }

  /** No class asks {@link CaptchaJobs} for its internal parts. */
  public static ArchRule noClassReachesIntoTheEngine() {
    return noClasses()
        .should()
        .callMethod(CaptchaJobs.class, "part", Class.class)
        .orShould()
        .callMethod(CaptchaJobs.class, "worker")
        .because("CaptchaJobs.operations(), pingbacks() and the builder's listener are the seams");
  }
}

package com.captchajobs.core.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;

/**
 * The unit tier ({@code ./mvnw -Punit test}, docs/testing.md): the test classes tagged {@code unit}
 * start no PostgreSQL, spawn no JVM and start no Spring context. At run time the unit profile makes
 * every process start and every {@code SpringApplication.run} fail; this rule also catches, before
 * anything runs, a unit test that names a fixture or a Spring test context (an {@code
 * ApplicationContextRunner} starts a context without {@code SpringApplication}).
 */
public final class UnitTier {

  /** The tag of the unit tier. */
  public static final String TAG = "unit";

  /** The fixtures that start PostgreSQL, a JVM or a node. */
  private static final Set<String> FIXTURES =
      Set.of(
          "com.captchajobs.core.testing.EmbeddedPostgresSupport",
          "com.captchajobs.core.testing.EngineNode",
          "com.captchajobs.core.testing.LifecycleFixture",
          "com.captchajobs.core.testing.SimulatorProcess",
          "com.captchajobs.worker.testing.WorkerNode",
          "com.captchajobs.worker.testing.WorkerProcess",
          ProcessBuilder.class.getName());

  private UnitTier() {}

  /** The test classes (never main ones) under the packages on the class path. */
  public static JavaClasses testClassesOf(String... packages) {
    return OurClasses.tests(packages);
  }

  /** No class tagged {@code unit} uses a fixture that starts something, or a Spring context. */
  public static ArchRule startsNothing() {
    return noClasses()
        .that(taggedUnit())
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "start PostgreSQL, a JVM, a node or a Spring context",
                (JavaClass c) ->
                    FIXTURES.contains(c.getName())
                        || c.getPackageName().startsWith("io.zonky.test")
                        || c.getPackageName().startsWith("org.springframework.boot.test.context")
                        || c.getName().startsWith("org.springframework.boot.SpringApplication")
                        || c.getName().startsWith("org.springframework.boot.builder.")))
        .because("the unit tier runs in minutes; such a test belongs to ./mvnw verify only");
  }

  private static DescribedPredicate<JavaClass> taggedUnit() {
    return DescribedPredicate.describe(
        "are tagged " + TAG,
        (JavaClass c) ->
            c.getAnnotations().stream()
                .anyMatch(
                    (JavaAnnotation<JavaClass> a) ->
                        a.getRawType().getName().equals("org.junit.jupiter.api.Tag")
                            && TAG.equals(a.get("value").orElse(null))));
  }
}

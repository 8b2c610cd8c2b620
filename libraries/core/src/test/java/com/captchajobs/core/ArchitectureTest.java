package com.captchajobs.core;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.OurClasses;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The shape of the core, checked on its compiled classes. */
@Tag("unit")
class ArchitectureTest {

  /**
   * The core's classes and, under the same package root, those of captchajobs-captchaai-client
   * ({@code core.client}, whose own rules are its module's ClientArchitectureTest).
   */
  static final JavaClasses CORE = OurClasses.main("com.captchajobs.core");

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
  void theValuesTheEngineSharesAreALeafOfTheCore() {
    DescribedPredicate<JavaClass> restOfTheCore =
        resideInAPackage("com.captchajobs.core..")
            .and(
                DescribedPredicate.not(
                    resideInAnyPackage(
                        "com.captchajobs.core.model..", "com.captchajobs.core.client..")));
    noClasses()
        .that()
        .resideInAPackage("com.captchajobs.core.model..")
        .should()
        .dependOnClassesThat(restOfTheCore)
        .because("the engine and the public API both use them, so they sit below both")
        .check(CORE);
  }

  @Test
  void thePublicApiNeverExposesAnInternalType() {
    members()
        .that()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .resideOutsideOfPackage("com.captchajobs.core.internal..")
        .should(
            new ArchCondition<JavaMember>("name no internal type in their signature") {
              @Override
              public void check(JavaMember member, ConditionEvents events) {
                List<JavaClass> types = new ArrayList<>();
                if (member instanceof JavaCodeUnit unit) {
                  types.add(unit.getRawReturnType());
                  types.addAll(unit.getRawParameterTypes());
                } else if (member instanceof JavaField field) {
                  types.add(field.getRawType());
                }
                for (JavaClass type : types) {
                  if (type.getPackageName().startsWith("com.captchajobs.core.internal")) {
                    events.add(
                        SimpleConditionEvent.violated(
                            member, member.getFullName() + " exposes " + type.getName()));
                  }
                }
              }
            })
        .check(CORE);
  }

  /**
   * Found mechanically, as issue 34 counted them: records with the same component names, enums with
   * the same constants. The one pair docs/architecture.md keeps (store.Solve and its public view)
   * is a projection, not a mirror, so none is allowed.
   */
  @Test
  void noTwoTypesOfTheCoreMirrorEachOther() {
    Map<String, List<String>> byShape = new TreeMap<>();
    for (JavaClass type : CORE) {
      Class<?> c = type.reflect();
      String shape = null;
      if (c.isRecord() && c.getRecordComponents().length > 1) {
        shape = "record " + Arrays.stream(c.getRecordComponents()).map(r -> r.getName()).toList();
      } else if (c.isEnum() && c.getEnumConstants().length > 1) {
        shape =
            "enum " + Arrays.stream(c.getEnumConstants()).map(e -> ((Enum<?>) e).name()).toList();
      }
      if (shape != null) {
        byShape.computeIfAbsent(shape, s -> new ArrayList<>()).add(c.getName());
      }
    }
    assertThat(byShape.values().stream().filter(names -> names.size() > 1).toList())
        .as("records with the same components, enums with the same constants")
        .isEmpty();
  }

  @Test
  void noPackagesOfTheCoreDependOnEachOtherInACycle() {
    slices().matching("com.captchajobs.(**)").should().beFreeOfCycles().check(CORE);
  }
}

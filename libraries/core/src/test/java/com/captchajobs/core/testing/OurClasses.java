package com.captchajobs.core.testing;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Our own classes for the architecture rules, imported from where the class loader keeps their
 * packages: a module's {@code target/classes} or {@code target/test-classes}, or the jar of a
 * module built before it (jars built by Maven list their directories).
 *
 * <p>ArchUnit's {@code importPackages} also opens every jar on the class path in search of packages
 * a jar might hold without listing its directory: on a node's class path (some 170 jars) that
 * search took about a second of CPU per import, for jars that never hold our packages.
 */
public final class OurClasses {

  private OurClasses() {}

  /** The main classes (never tests) under the packages. */
  public static JavaClasses main(String... packages) {
    return importPackages(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS, packages);
  }

  /** The test classes (never main ones) under the packages. */
  public static JavaClasses tests(String... packages) {
    return importPackages(ImportOption.Predefined.ONLY_INCLUDE_TESTS, packages);
  }

  private static JavaClasses importPackages(ImportOption option, String... packages) {
    Set<Location> locations = new LinkedHashSet<>();
    for (String pkg : packages) {
      List<URL> found = locationsOf(pkg);
      if (found.isEmpty()) {
        throw new IllegalArgumentException(
            "no directory or jar on the class path holds the package " + pkg);
      }
      found.forEach(url -> locations.add(Location.of(url)));
    }
    return new ClassFileImporter().withImportOption(option).importLocations(locations);
  }

  private static List<URL> locationsOf(String pkg) {
    try {
      return Collections.list(
          OurClasses.class.getClassLoader().getResources(pkg.replace('.', '/') + "/"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

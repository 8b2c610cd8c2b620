package com.captchajobs.core;

import com.captchajobs.core.testing.UnitTier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The core's tests tagged {@code unit} start nothing (docs/testing.md). */
@Tag("unit")
class UnitTierTest {

  @Test
  void noTestOfTheCoresUnitTierStartsPostgresqlAJvmOrASpringContext() {
    UnitTier.startsNothing().check(UnitTier.testClassesOf("com.captchajobs"));
  }
}

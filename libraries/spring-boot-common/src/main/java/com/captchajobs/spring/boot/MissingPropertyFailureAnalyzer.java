package com.captchajobs.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A half-configured node refuses to start; this says which property to set. */
public class MissingPropertyFailureAnalyzer
    extends AbstractFailureAnalyzer<MissingPropertyException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, MissingPropertyException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Set " + cause.property() + " (secrets through the environment, never on a command line).",
        cause);
  }
}

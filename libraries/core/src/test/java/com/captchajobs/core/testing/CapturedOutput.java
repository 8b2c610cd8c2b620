package com.captchajobs.core.testing;

/**
 * What {@code System.out} and {@code System.err} (and so the console log) printed since the test
 * class started, each line once; a test parameter under {@link OutputCapture}.
 */
public interface CapturedOutput {

  /** Both streams, in the order they were written. */
  String getAll();

  /** The same as {@link #getAll()}. */
  @Override
  String toString();
}

package com.example.boot41;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.hostcontract.StarterHostFirstContract;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/**
 * Boot 4.1 + JobRunr 8.7 host with the starter, host first: it meets a fresh database, then a
 * worker node (the real jar, in its own JVM) joins it. The guest rules, each checked once; the
 * tests they share with the other host modules are in {@link StarterHostFirstContract}.
 */
class Boot41HostFirstTest extends StarterHostFirstContract {

  static final String KEY = "b41first0b41first0b41first0b41fi";
  static final String WORKER = "boot41-first-worker";

  Boot41HostFirstTest() {
    super(KEY, WORKER, "b41", Boot41HostApplication.class);
  }

  @Test
  void theHostRunsOnBoot41AndItsOwnJobRunsOnItsOwnServerInItsOwnTables() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.1.");
    assertTheHostsOwnJobRunsOnItsOwnServerInItsOwnTables();
  }
}

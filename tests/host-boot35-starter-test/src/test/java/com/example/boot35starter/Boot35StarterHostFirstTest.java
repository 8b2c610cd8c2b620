package com.example.boot35starter;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.hostcontract.Hosts;
import com.example.hostcontract.StarterHostFirstContract;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/**
 * Boot 3.5 + JobRunr 8.4 host with the Boot 3 starter, host first: it meets a fresh database, then
 * a worker node (the real jar, in its own JVM) joins it. The guest rules, each checked once; the
 * tests they share with the other host modules are in {@link StarterHostFirstContract}.
 */
class Boot35StarterHostFirstTest extends StarterHostFirstContract {

  static final String KEY = "b35sfrst0b35sfrst0b35sfrst0b35sf";
  static final String WORKER = "boot35-starter-first-worker";

  Boot35StarterHostFirstTest() {
    super(KEY, WORKER, "b35s", Boot35StarterHostApplication.class);
  }

  @Test
  void theHostRunsOnBoot35AndJobRunr84AndItsOwnJobRunsOnItsOwnServerInItsOwnTables() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
    assertThat(Hosts.jobRunrVersion()).isEqualTo("8.4.0");
    assertTheHostsOwnJobRunsOnItsOwnServerInItsOwnTables();
  }
}

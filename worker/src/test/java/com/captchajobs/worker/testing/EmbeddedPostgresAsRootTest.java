package com.captchajobs.worker.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * CI and many containers run as root, and PostgreSQL refuses to run as root; zonky's embedded
 * binaries cope. This test runs as whoever runs the build (root on CI) and proves it starts.
 */
class EmbeddedPostgresAsRootTest {

  @Test
  void theEmbeddedPostgresStartsUnderTheCurrentUserRootIncluded() {
    String user = System.getProperty("user.name");
    JdbcTemplate jdbc = new JdbcTemplate(EmbeddedPostgresSupport.server().getPostgresDatabase());

    assertThat(jdbc.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
    assertThat(jdbc.queryForObject("SHOW server_version", String.class)).startsWith("17.");
    System.out.println("[postgres] embedded PostgreSQL started for OS user " + user);
  }
}

package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.WebhookSettings;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The public entry, without a database: what {@link CaptchaJobs#builder()} hands out, the builder
 * methods users rely on, and that a node whose settings cannot work is refused before anything
 * starts. Nodes that start are {@code CaptchaJobsInPlainJavaTest}'s.
 */
@Tag("unit")
class CaptchaJobsTest {

  /** The builder methods of the public API: contracts, kept whatever moves behind them. */
  static final List<String> BUILDER_METHODS =
      List.of(
          "dataSource",
          "schema",
          "apiKey",
          "baseUrl",
          "connectTimeout",
          "readTimeout",
          "client",
          "settings",
          "worker",
          "webhooks",
          "retention",
          "pingbacks",
          "dashboard",
          "reportWindow",
          "listener",
          "clock",
          "nodeName",
          "jobPollInterval",
          "workerCount",
          "shutdownWait",
          "pingbackSecret",
          "pingbackUrl",
          "pingbackRegister",
          "webhookSecret",
          "webhookClientSecret",
          "webhookAllowedHosts",
          "webhookIncludeToken",
          "webhookTimeout",
          "webhookRetries",
          "webhookThreads",
          "webhookThreadsPerClient",
          "webhookBackoff",
          "webhookMaxBackoff",
          "retentionInterval",
          "dashboardAddress",
          "build");

  /** The six second routes to {@code SolveSettings}, removed in 0.x: set with settings(..). */
  static final List<String> REMOVED_SECOND_ROUTES =
      List.of(
          "threads",
          "threadsReserve",
          "preflight",
          "maxBackoff",
          "reconcileInterval",
          "providerCheckInterval");

  @Test
  void everyCallOfBuilderHandsOutAFreshBuilder() {
    CaptchaJobs.Builder first = CaptchaJobs.builder().schema("first");

    assertThat(CaptchaJobs.builder()).isNotSameAs(first);
    assertThat(((NodeBuilder) CaptchaJobs.builder()).schema).isEqualTo("captchajobs");
  }

  @Test
  void theBuilderKeepsEveryMethodUsersRelyOnAndEveryShortcutReturnsTheBuilder() {
    List<String> methods =
        Arrays.stream(CaptchaJobs.Builder.class.getMethods()).map(Method::getName).toList();

    assertThat(methods).containsAll(BUILDER_METHODS);
    assertThat(methods).doesNotContainAnyElementsOf(REMOVED_SECOND_ROUTES);
    // a chain of shortcuts stays a CaptchaJobs.Builder (checked by the compiler here)
    CaptchaJobs.Builder chained =
        CaptchaJobs.builder()
            .webhookTimeout(Duration.ofSeconds(3))
            .nodeName("n")
            .retention(Duration.ofDays(1));
    assertThat(chained).isInstanceOf(NodeBuilder.class);
  }

  @Test
  void nothingOfThePublicEntryIsDeprecated() {
    Stream<AnnotatedElement> members =
        Stream.of(CaptchaJobs.class, CaptchaJobs.Builder.class, NodeShortcuts.class)
            .flatMap(
                c ->
                    Stream.concat(
                        Stream.of(c.getDeclaredMethods()), Stream.of(c.getDeclaredFields())));

    assertThat(members.filter(m -> m.isAnnotationPresent(Deprecated.class)).toList()).isEmpty();
  }

  @Test
  void aNodeWithoutADataSourceIsRefusedBeforeAnythingStarts() {
    assertThatThrownBy(() -> CaptchaJobs.builder().apiKey(NodeBuilderTest.KEY).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("dataSource(DataSource) is required")
        .extracting(e -> ((InvalidSettingException) e).settings())
        .isEqualTo(List.of("dataSource"));
  }

  @Test
  void aHalfConfiguredWorkerIsRefusedWithTheGroupsMessageBeforeTheDatabaseIsAsked() {
    PGSimpleDataSource nowhere = new PGSimpleDataSource();
    nowhere.setServerNames(new String[] {"127.0.0.1"});
    nowhere.setPortNumbers(new int[] {9}); // nothing listens: reaching it would fail otherwise

    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(nowhere)
                    .apiKey(NodeBuilderTest.KEY)
                    .webhookSecret("too-short")
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "WebhookSettings.secret(String) must be at least "
                + WebhookSettings.MIN_SECRET_CHARS
                + " characters");
    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(nowhere)
                    .pingbackUrl("https://app.example/captchaai/pingback")
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("PingbackSettings.secret(String) is required");
  }
}

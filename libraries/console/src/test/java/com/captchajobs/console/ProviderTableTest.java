package com.captchajobs.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.model.ProviderRow;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ProviderTableTest {

  static final ConsoleProviders.Line PRIMARY =
      new ConsoleProviders.Line(
          new ProviderRow("captchaai", "PRIMARY", 5, 3, "fp-primary", false, BigDecimal.ZERO, null),
          false);
  static final ConsoleProviders.Line POOL =
      new ConsoleProviders.Line(
          new ProviderRow("plan2", "POOL", 10, 0, "fp-pool", false, BigDecimal.ZERO, null), false);
  static final ConsoleProviders.Line BACKUP =
      new ConsoleProviders.Line(
          new ProviderRow(
              "backup2c",
              "BACKUP",
              4,
              2,
              "fp-backup",
              true,
              new BigDecimal("12.3000"),
              new BigDecimal("40")),
          true);

  @Test
  void theOverviewShowsOneRowPerProviderThePrimaryFirst() {
    String html =
        Pages.overview(
            new Pages.Overview(
                new ConsoleQueries.Gauges(Instant.parse("2026-12-05T11:00:00Z"), 5, 3, 0, null),
                List.of(),
                new ConsoleQueries.Latency(0, null, null),
                List.of(),
                List.of(PRIMARY, POOL, BACKUP),
                List.of(),
                List.of()));

    assertThat(html).contains("<h2 id=\"providers-h\">Providers</h2><div id=\"providers\">");
    assertThat(html.indexOf("data-provider=\"captchaai\""))
        .isPositive()
        .isLessThan(html.indexOf("data-provider=\"plan2\""));
    assertThat(html.indexOf("data-provider=\"plan2\""))
        .isLessThan(html.indexOf("data-provider=\"backup2c\""));
  }

  @Test
  void eachRowShowsRoleThreadsInFlightBreakerSpendAndBudgetAndTheKeyOnlyAsItsFingerprint() {
    String primary = row(ProviderTable.html(List.of(PRIMARY)), "captchaai");
    String backup = row(ProviderTable.html(List.of(BACKUP)), "backup2c");

    assertThat(primary)
        .contains(
            "<th scope=\"row\">captchaai</th><td>primary</td><td class=\"num\">5</td>"
                + "<td class=\"num\">3</td><td>breaker closed</td><td><code>fp-primary</code>")
        .contains("<td class=\"num\">threads</td><td>threads</td>")
        .doesNotContain("<form");
    assertThat(backup)
        .contains(
            "<td>backup</td><td class=\"num\">4</td><td class=\"num\">2</td>"
                + "<td><strong class=\"bad\">breaker open</strong></td><td><code>fp-backup</code>")
        .contains("<td class=\"num\">12.30</td><td>40.00 <form");
  }

  @Test
  void aPricedProviderWithoutABudgetSaysNoCapAndOneBilledByThreadsHasNoBudgetForm() {
    ConsoleProviders.Line uncapped =
        new ConsoleProviders.Line(
            new ProviderRow("b3", "BACKUP", 2, 0, "fp3", false, new BigDecimal("0.00435"), null),
            true);

    assertThat(ProviderTable.html(List.of(uncapped)))
        .contains("<td class=\"num\">0.00435</td><td>no cap <form")
        .contains("value=\"\"><button");
    assertThat(ProviderTable.html(List.of(POOL)))
        .contains("<td>pool</td>", "<td class=\"num\">threads</td><td>threads</td>")
        .doesNotContain("<form");
  }

  @Test
  void aPricedProvidersBudgetFormPostsItsNameAndANamedLabelledField() {
    String html = ProviderTable.html(List.of(BACKUP));

    assertThat(html)
        .contains(
            "<form method=\"post\" class=\"inline budget\" action=\"/console/providers/budget\">",
            "<input type=\"hidden\" name=\"provider\" value=\"backup2c\">",
            "<label class=\"sr\" for=\"budget-backup2c\">Daily budget of backup2c (0: no cap)"
                + "</label>",
            "<input id=\"budget-backup2c\" name=\"dailyBudget\" inputmode=\"decimal\"",
            "value=\"40.00\">",
            "aria-label=\"Set the daily budget of backup2c\">Set budget</button>");
  }

  @Test
  void aSpentBudgetIsMarkedAndNamesAreEscaped() {
    ConsoleProviders.Line spent =
        new ConsoleProviders.Line(
            new ProviderRow(
                "b<x>", "BACKUP", 1, 0, "f\"p", false, new BigDecimal("5"), new BigDecimal("5")),
            true);

    assertThat(ProviderTable.html(List.of(spent)))
        .contains("<td class=\"num bad\">5.00</td>", "<strong class=\"bad\">spent</strong>")
        .contains("b&lt;x&gt;", "f&quot;p")
        .doesNotContain("<x>", "f\"p");
  }

  @Test
  void noProviderRegisteredYetSaysSo() {
    assertThat(ProviderTable.html(List.of())).contains("No worker has registered a provider yet.");
  }

  /** The table row of one provider. */
  private static String row(String html, String name) {
    int start = html.indexOf("<tr data-provider=\"" + name + "\">");
    assertThat(start).as("a row for " + name).isNotNegative();
    return html.substring(start, html.indexOf("</tr>", start));
  }
}

package com.captchajobs.console;

import static com.captchajobs.console.Html.esc;

import com.captchajobs.core.model.ProviderRow;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * The overview's providers: one row each, the primary first, with its threads, slots in flight,
 * breaker, today's spend and daily budget ("threads" for one billed by threads), and a form to set
 * the budget of a priced provider. A pure function of the rows; every value goes through {@link
 * Html#esc}.
 */
final class ProviderTable {

  private ProviderTable() {}

  static String html(List<ConsoleProviders.Line> lines) {
    if (lines.isEmpty()) {
      return "<p>No worker has registered a provider yet.</p>";
    }
    StringBuilder t =
        new StringBuilder(
            "<table id=\"provider-rows\"><caption class=\"sr\">Providers, the primary first"
                + "</caption><thead><tr><th scope=\"col\">Provider</th><th scope=\"col\">Role</th>"
                + "<th scope=\"col\" class=\"num\">Threads</th>"
                + "<th scope=\"col\" class=\"num\">In flight</th><th scope=\"col\">State</th>"
                + "<th scope=\"col\">Key fingerprint</th>"
                + "<th scope=\"col\" class=\"num\">Spent today (UTC)</th>"
                + "<th scope=\"col\">Daily budget</th></tr></thead><tbody>");
    for (ConsoleProviders.Line line : lines) {
      ProviderRow r = line.row();
      t.append("<tr data-provider=\"")
          .append(esc(r.name()))
          .append("\"><th scope=\"row\">")
          .append(esc(r.name()))
          .append("</th><td>")
          .append(esc(r.role() == null ? "" : r.role().toLowerCase(Locale.ROOT)))
          .append("</td><td class=\"num\">")
          .append(r.threads())
          .append("</td><td class=\"num\">")
          .append(r.inFlight())
          .append("</td><td>")
          .append(
              r.breakerOpen() ? "<strong class=\"bad\">breaker open</strong>" : "breaker closed")
          .append("</td><td><code>")
          .append(esc(r.keyFingerprint()))
          .append("</code></td><td class=\"num")
          .append(spent(r) ? " bad" : "")
          .append("\">")
          .append(line.priced() ? esc(amount(r.spentToday())) : "threads")
          .append("</td><td>")
          .append(line.priced() && !line.primary() ? budgetCell(r) : "threads")
          .append("</td></tr>");
    }
    return t.append("</tbody></table>").toString();
  }

  /** A budget, or "no cap". */
  static String budget(BigDecimal budget) {
    return budget == null ? "no cap" : amount(budget);
  }

  /** An amount as written by operators: at least two decimals, no exponent. */
  static String amount(BigDecimal value) {
    if (value == null) {
      return "0.00";
    }
    BigDecimal v = value.stripTrailingZeros();
    return (v.scale() < 2 ? v.setScale(2) : v).toPlainString();
  }

  private static boolean spent(ProviderRow r) {
    return r.dailyBudget() != null
        && r.spentToday() != null
        && r.spentToday().compareTo(r.dailyBudget()) >= 0;
  }

  /** The budget, and the form that sets it: {@code provider} hidden, {@code dailyBudget} typed. */
  private static String budgetCell(ProviderRow r) {
    String id = "budget-" + esc(r.name());
    return esc(budget(r.dailyBudget()))
        + (spent(r) ? " <strong class=\"bad\">spent</strong>" : "")
        + " <form method=\"post\" class=\"inline budget\" action=\"/console/providers/budget\">"
        + "<input type=\"hidden\" name=\""
        + ConsoleProviders.PROVIDER_FIELD
        + "\" value=\""
        + esc(r.name())
        + "\"><label class=\"sr\" for=\""
        + id
        + "\">Daily budget of "
        + esc(r.name())
        + " (0: no cap)</label><input id=\""
        + id
        + "\" name=\""
        + ConsoleProviders.BUDGET_FIELD
        + "\" inputmode=\"decimal\" size=\"8\" maxlength=\"20\" required value=\""
        + (r.dailyBudget() == null ? "" : esc(amount(r.dailyBudget())))
        + "\"><button type=\"submit\" aria-label=\"Set the daily budget of "
        + esc(r.name())
        + "\">Set budget</button></form>";
  }
}

package com.captchajobs.console;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.model.ProviderRow;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The providers' part of the console (docs/providers.md): their rows for the overview, as {@code
 * Operations.providers()} reads them, and the operator's daily budget, set as {@code
 * Operations.setDailyBudget} sets it. Keys appear as fingerprints only.
 */
final class ConsoleProviders {

  /** The form field of the budget, named as {@code Operations.setDailyBudget}'s argument. */
  static final String BUDGET_FIELD = "dailyBudget";

  /** The form field of the provider's name. */
  static final String PROVIDER_FIELD = "provider";

  /**
   * A plain non-negative decimal: up to 12 digits, up to 6 after the point, no sign or exponent.
   */
  private static final Pattern AMOUNT = Pattern.compile("\\d{1,12}(\\.\\d{1,6})?");

  private static final Logger log = LoggerFactory.getLogger(ConsoleProviders.class);

  private final OperatorQueries operations;
  private final Db db;

  ConsoleProviders(OperatorQueries operations, DataSource dataSource, Schema schema) {
    this.operations = operations;
    this.db = new Db(dataSource, schema, ConsoleQueries.STATEMENT_TIMEOUT);
  }

  /** A provider's row, and whether it is priced per solve (otherwise billed by threads). */
  record Line(ProviderRow row, boolean priced) {

    boolean primary() {
      return "PRIMARY".equals(row.role());
    }
  }

  /** Every registered provider, the primary ({@code captchaai}) first. */
  List<Line> lines() {
    Set<String> priced =
        Set.copyOf(
            db.query(
                "SELECT name FROM captchajobs.gate_provider WHERE prices <> '{}'::jsonb",
                rs -> rs.getString("name")));
    return operations.providerRows().all().stream()
        .map(r -> new Line(r, priced.contains(r.name())))
        .toList();
  }

  /**
   * Sets a provider's daily budget from the overview's form ({@value #PROVIDER_FIELD}, {@value
   * #BUDGET_FIELD}); a value that is not a plain non-negative decimal is refused with 400 naming
   * the field, and nothing changes. Logged with the operator's name, never a key.
   */
  Outcome setDailyBudget(Map<String, String> form, String operator) {
    String name = ConsoleQueries.Filter.blankToNull(form.get(PROVIDER_FIELD));
    if (name == null || name.length() > 32) {
      return refused(
          400, PROVIDER_FIELD + " is required: the name of a provider (32 characters at most).");
    }
    String text = ConsoleQueries.Filter.blankToNull(form.get(BUDGET_FIELD));
    if (text == null || !AMOUNT.matcher(text).matches()) {
      return refused(
          400,
          BUDGET_FIELD
              + " must be a decimal of zero or more, such as 40 or 12.50 (0 means no cap):"
              + " nothing changed.");
    }
    BigDecimal budget = new BigDecimal(text);
    Optional<ProviderRow> before =
        operations.providerRows().all().stream().filter(r -> r.name().equals(name)).findFirst();
    if (before.isPresent() && "PRIMARY".equals(before.get().role())) {
      return refused(
          409,
          name
              + " is the primary, billed by threads: it has no daily budget (409). Nothing changed.");
    }
    if (before.isEmpty() || !operations.providerRows().setDailyBudget(name, budget)) {
      return refused(
          404, "No worker registered a provider named " + name + " (404): nothing changed.");
    }
    String was = ProviderTable.budget(before.get().dailyBudget());
    String now = ProviderTable.budget(budget.signum() == 0 ? null : budget);
    log.info(
        "Console: daily budget of provider {} set to {} (was {}) by {}",
        Requests.escaped(name),
        now,
        was,
        Requests.escaped(operator));
    return new Outcome(
        200,
        Pages.outcome(
            "Budget set",
            "The daily budget of "
                + name
                + " is now "
                + now
                + " (was "
                + was
                + "); spent today: "
                + ProviderTable.amount(before.get().spentToday())
                + ". It holds for the whole fleet until set again.",
            "/console/"));
  }

  private static Outcome refused(int status, String message) {
    return new Outcome(status, Pages.outcome("Budget not set", message, "/console/"));
  }
}

package com.captchajobs.core.internal.ops;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.model.ProviderRow;
import java.math.BigDecimal;
import java.util.List;

/** The providers as operators read them, and the budget they set at runtime. */
public final class ProviderRows {

  private final Db db;

  ProviderRows(Db db) {
    this.db = db;
  }

  /** Every provider the workers registered: the primary first, then by name. */
  public List<ProviderRow> all() {
    return db.query(
        "SELECT p.name, p.role, p.capacity, p.key_fingerprint,"
            + " (SELECT count(*) FROM captchajobs.gate_slot g WHERE g.provider = p.name"
            + "   AND g.solve_id IS NOT NULL AND g.lease_until > now()) AS in_flight,"
            + " EXISTS (SELECT 1 FROM captchajobs.breaker b"
            + "   WHERE b.key_fingerprint = p.key_fingerprint AND b.open) AS breaker_open,"
            + " (SELECT COALESCE(sum(amount), 0) FROM captchajobs.provider_spend s"
            + "   WHERE s.provider = p.name AND s.day = (now() AT TIME ZONE 'UTC')::date) AS spent,"
            + " NULLIF(COALESCE(p.operator_budget, p.daily_budget), 0) AS budget"
            + " FROM captchajobs.gate_provider p"
            + " ORDER BY p.role = 'PRIMARY' DESC, p.name",
        rs ->
            new ProviderRow(
                rs.getString("name"),
                rs.getString("role"),
                rs.getInt("capacity"),
                rs.getInt("in_flight"),
                rs.getString("key_fingerprint"),
                rs.getBoolean("breaker_open"),
                rs.getBigDecimal("spent"),
                rs.getBigDecimal("budget")));
  }

  /**
   * Sets the provider's budget per UTC day for the whole fleet, over the configured one, until set
   * again ({@code null}: back to the configured one; 0: no cap). False when no worker registered
   * the provider.
   */
  public boolean setDailyBudget(String provider, BigDecimal budget) {
    if (budget != null && budget.signum() < 0) {
      throw new IllegalArgumentException("dailyBudget must be zero or more, or null");
    }
    return db.update(
            "UPDATE captchajobs.gate_provider SET operator_budget = ?, updated_at = now()"
                + " WHERE name = ? AND role <> 'PRIMARY'",
            budget,
            provider)
        == 1;
  }
}

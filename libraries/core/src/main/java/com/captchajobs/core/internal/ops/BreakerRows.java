package com.captchajobs.core.internal.ops;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.model.BreakerRow;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** The breaker table as operators read it: one row per API key fingerprint, never a key. */
public final class BreakerRows {

  private final Db db;

  BreakerRows(Db db) {
    this.db = db;
  }

  /** Every key's breaker row (fingerprints, never keys). */
  public List<BreakerRow> all() {
    return db.query(
        "SELECT key_fingerprint, open, error_code, reason, opened_at, closed_at"
            + " FROM captchajobs.breaker ORDER BY key_fingerprint",
        BreakerRows::toBreakerRow);
  }

  /** One key's breaker row; empty while its breaker never opened. */
  public Optional<BreakerRow> of(String keyFingerprint) {
    return db.queryOne(
        "SELECT key_fingerprint, open, error_code, reason, opened_at, closed_at"
            + " FROM captchajobs.breaker WHERE key_fingerprint = ?",
        BreakerRows::toBreakerRow,
        keyFingerprint);
  }

  private static BreakerRow toBreakerRow(ResultSet rs) throws SQLException {
    return new BreakerRow(
        rs.getString("key_fingerprint"),
        rs.getBoolean("open"),
        rs.getString("error_code"),
        rs.getString("reason"),
        Db.instant(rs, "opened_at"),
        Db.instant(rs, "closed_at"));
  }
}

package com.captchajobs.core.internal.provider;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet-wide credential breaker, keyed by a fingerprint of the API key (never the key). Once a
 * credential code is seen, no node calls in.php again until an operator closes it.
 */
public final class Breaker {

  private static final Logger log = LoggerFactory.getLogger(Breaker.class);

  /** Why the breaker is open. */
  public record State(boolean open, String errorCode, String reason, Instant openedAt) {}

  private final Db db;
  private final String fingerprint;

  public Breaker(DataSource dataSource, Schema schema, String keyFingerprint) {
    this.db = new Db(dataSource, schema);
    this.fingerprint = keyFingerprint;
  }

  public String fingerprint() {
    return fingerprint;
  }

  /** The open state, or empty when closed. */
  public Optional<State> openState() {
    return db.queryOne(
            "SELECT open, error_code, reason, opened_at FROM captchajobs.breaker WHERE key_fingerprint = ?",
            rs ->
                new State(
                    rs.getBoolean("open"),
                    rs.getString("error_code"),
                    rs.getString("reason"),
                    Db.instant(rs, "opened_at")),
            fingerprint)
        .filter(State::open);
  }

  /** Opens the breaker; the first code that opened it is kept while it stays open. */
  public void open(String errorCode, String reason) {
    db.update(
        "INSERT INTO captchajobs.breaker AS b (key_fingerprint, open, error_code, reason, opened_at)"
            + " VALUES (?, true, ?, ?, now()) ON CONFLICT (key_fingerprint) DO UPDATE SET"
            + " open = true, error_code = EXCLUDED.error_code, reason = EXCLUDED.reason,"
            + " opened_at = now(), closed_at = NULL WHERE NOT b.open",
        fingerprint,
        errorCode,
        reason);
  }

  /**
   * Opens the breaker because the provider rejected the API key on {@code call} (a credential
   * code), and says so once at ERROR: no node submits until an operator closes it.
   */
  public void keyRejected(String errorCode, String call) {
    open(errorCode, call + " answered " + errorCode);
    log.error(
        "Breaker OPEN: CaptchaAI rejected the API key ({} on {}); no node submits until an"
            + " operator closes it",
        errorCode,
        call);
  }

  /** Closes the breaker (an operator's decision); true when it was open. */
  public boolean closeBreaker() {
    return db.update(
            "UPDATE captchajobs.breaker SET open = false, closed_at = now()"
                + " WHERE key_fingerprint = ? AND open",
            fingerprint)
        == 1;
  }
}

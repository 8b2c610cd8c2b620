package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.time.Timers;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's working threads for the operator console: while someone watches its overview
 * ({@code gate.watched_until} in the future), one worker per key takes a turn every {@link #EVERY}
 * to read {@code threadsinfo} and store it in {@code provider_threads}. Nobody watching: no call at
 * all. The turn is taken in one statement, so a fleet of workers makes one call per key per turn.
 */
public final class WatchedThreads implements AutoCloseable {

  /** How often the fleet reads the working threads of a key while the console is watched. */
  public static final Duration EVERY = Duration.ofSeconds(4);

  private static final Duration TICK = Duration.ofSeconds(1);
  private static final Logger log = LoggerFactory.getLogger(WatchedThreads.class);

  private final Db db;
  private final String keyFingerprint;
  private final Supplier<ThreadsInfo> threadsInfo;
  private ScheduledExecutorService timer;

  public WatchedThreads(
      DataSource dataSource,
      Schema schema,
      String keyFingerprint,
      Supplier<ThreadsInfo> threadsInfo) {
    this.db = new Db(dataSource, schema);
    this.keyFingerprint = keyFingerprint;
    this.threadsInfo = threadsInfo;
  }

  /** One tick: takes the key's turn when the console is watched and the last turn is old. */
  public boolean tick() {
    boolean mine =
        db.queryOne(
                "INSERT INTO captchajobs.provider_threads (key_fingerprint, taken_at)"
                    + " SELECT ?, now() FROM captchajobs.gate WHERE id = 1 AND watched_until > now()"
                    + " ON CONFLICT (key_fingerprint) DO UPDATE SET taken_at = now()"
                    + " WHERE provider_threads.taken_at IS NULL"
                    + " OR provider_threads.taken_at < now() - ? * interval '1 millisecond'"
                    + " RETURNING 1",
                rs -> rs.getInt(1),
                keyFingerprint,
                EVERY.minusMillis(200).toMillis())
            .isPresent();
    if (!mine) {
      return false;
    }
    ThreadsInfo info;
    try {
      info = threadsInfo.get();
    } catch (CaptchaAiException e) {
      log.debug("threadsinfo for the console failed: {}", e.errorCode());
      return false;
    }
    db.update(
        "UPDATE captchajobs.provider_threads SET threads = ?, working_threads = ?, read_at = now()"
            + " WHERE key_fingerprint = ?",
        info.threads(),
        info.workingThreads(),
        keyFingerprint);
    return true;
  }

  /** Ticks every second on a daemon thread. */
  public synchronized WatchedThreads start() {
    timer = Timers.daemon("captchajobs-watched-threads");
    Timers.every(
        timer,
        TICK,
        () -> {
          try {
            tick();
          } catch (RuntimeException e) {
            log.debug("Console threads reading failed: {}", e.toString());
          }
        });
    return this;
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}

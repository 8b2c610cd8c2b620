package com.captchajobs.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.stats.Percentiles;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The console at scale, outside the build: seeds 1,000,000 solves (a week at about 1.7 solves a
 * second, with their events and polls) into embedded PostgreSQL with {@code generate_series}, times
 * every console query and page (what a browser waits for, minus the network), and checks with
 * {@code EXPLAIN} that no statement reads the solve, event or poll tables sequentially.
 *
 * <pre>
 * ./mvnw -pl libraries/console -am verify -Dtest=ConsoleBench -Dcaptchajobs.bench=true \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=none
 * </pre>
 *
 * The figures go to the test's output (target/surefire-reports) and docs/performance.md.
 */
@Tag("bench")
@EnabledIfSystemProperty(named = "captchajobs.bench", matches = "true")
class ConsoleBench {

  static final int SOLVES = Integer.getInteger("captchajobs.bench.solves", 1_000_000);
  static final int RUNS = 40;
  static final Pattern SEQ_SCAN =
      Pattern.compile("Seq Scan on (captchajobs\\.)?(solve|solve_event|poll)\\b(?!_)");

  /** The statements of the step being timed, with their plans. */
  static final Map<String, List<String>> plans = new LinkedHashMap<>();

  static String step;

  @Test
  void everyConsolePageAnswersWithin200MillisecondsAtAMillionSolvesOnIndexes() throws Exception {
    String url = EmbeddedPostgresSupport.newDatabase();
    try (HikariDataSource plain = new HikariDataSource()) {
      plain.setJdbcUrl(url);
      plain.setMaximumPoolSize(4);
      Schema schema = Schema.named("captchajobs");
      schema.migrate(plain);
      long t0 = System.nanoTime();
      seed(plain);
      System.out.printf("seeded %,d solves in %.1f s%n", SOLVES, (System.nanoTime() - t0) / 1e9);

      DataSource explaining = explaining(plain);
      ConsoleQueries queries = new ConsoleQueries(explaining, schema);
      Sampler sampler = new Sampler(queries);
      Instant now = Instant.now();
      for (int i = 450; i > 0; i--) {
        sampler.add(new ConsoleQueries.Gauges(now.minusSeconds(2L * i), 60, 100, 95, 61));
      }
      ConsoleHandler handler =
          new ConsoleHandler(
              queries,
              new OperatorQueries(explaining, schema),
              null,
              sampler,
              new ConsoleProviders(new OperatorQueries(explaining, schema), explaining, schema));
      JsonMapper json = JsonMapper.builder().build();
      UUID some = pick(plain, "SELECT id FROM captchajobs.solve WHERE status = 'CLAIMED' LIMIT 1");
      Cursor deep = cursorAt(plain, SOLVES / 2);

      Map<String, Supplier<Object>> pages = new LinkedHashMap<>();
      pages.put("overview page (GET /console/)", () -> Pages.overview(handler.overview()));
      pages.put(
          "overview refresh (GET /console/api/overview)",
          () -> write(json, handler.overviewJson(handler.overview())));
      pages.put("solves, no filter", () -> solves(queries, filter(), null));
      pages.put("solves, 10,000th page (keyset)", () -> solves(queries, filter(), deep));
      pages.put(
          "solves, client (1 of 20)",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter("client-7", null, null, null, null, null),
                  null));
      pages.put(
          "solves, client with 100 solves",
          () ->
              solves(
                  queries, new ConsoleQueries.Filter("tiny", null, null, null, null, null), null));
      pages.put(
          "solves, status FAILED",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, "FAILED", null, null, null, null),
                  null));
      pages.put(
          "solves, status WAITING_FOR_THREAD (rare)",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, "WAITING_FOR_THREAD", null, null, null, null),
                  null));
      pages.put(
          "solves, type",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, "GEETEST", null, null, null),
                  null));
      pages.put(
          "solves, type, 10,000th page (keyset)",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, "GEETEST", null, null, null),
                  deep));
      pages.put(
          "solves, a type with no solves (not in the data)",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, "GEETEST_V5", null, null, null),
                  null));
      pages.put(
          "solves, type matching nothing (client with 100 solves + GEETEST)",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter("tiny", null, "GEETEST", null, null, null),
                  null));
      pages.put(
          "solves, type + status FAILED",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, "FAILED", "IMAGE", null, null, null),
                  null));
      pages.put(
          "solves, batch",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, null, "batch-420", null, null),
                  null));
      pages.put(
          "solves, error code",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, null, null, "ERROR_PROXY_BANNED", null),
                  null));
      pages.put(
          "solves, key prefix (narrow)",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, null, null, null, "order-54321"),
                  null));
      pages.put(
          "solves, key prefix (broad)",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, null, null, null, "order-1"),
                  null));
      pages.put(
          "solves, key prefix matching nothing",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, null, null, null, "nothing-"),
                  null));
      pages.put(
          "solves, key prefix of only the oldest solves",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, null, null, null, "order-99999"),
                  null));
      pages.put(
          "solves, key prefix + type",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter(null, null, "GEETEST", null, null, "order-5432"),
                  null));
      pages.put(
          "solves, client + status + type",
          () ->
              solves(
                  queries,
                  new ConsoleQueries.Filter("client-3", "FAILED", "TURNSTILE", null, null, null),
                  null));
      pages.put(
          "solve page (timeline)",
          () -> Pages.solve(queries.solve(some).orElseThrow(), queries.events(some)));
      pages.put("dead solves by code", () -> Pages.dead(queries.deadByCode(), null, null));
      pages.put(
          "dead solves of a code",
          () ->
              Pages.dead(
                  queries.deadByCode(),
                  "ERROR_PROXY_BANNED",
                  queries.deadOfCode("ERROR_PROXY_BANNED", null)));

      StringBuilder table =
          new StringBuilder(
              "| page or refresh | p50 ms | p95 ms | max ms | plans |\n|---|---|---|---|---|\n");
      List<String> slow = new ArrayList<>();
      List<String> seqScans = new ArrayList<>();
      for (Map.Entry<String, Supplier<Object>> page : pages.entrySet()) {
        step = page.getKey();
        plans.put(step, new ArrayList<>());
        page.getValue().get(); // with EXPLAIN of each statement
        String planned = step;
        step = null;
        for (int i = 0; i < 5; i++) {
          page.getValue().get();
        }
        List<Long> micros = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
          long t = System.nanoTime();
          page.getValue().get();
          micros.add((System.nanoTime() - t) / 1000);
        }
        double p50 = Percentiles.of(micros, 0.50) / 1000.0;
        double p95 = Percentiles.of(micros, 0.95) / 1000.0;
        double max = micros.stream().mapToLong(Long::longValue).max().orElse(0) / 1000.0;
        List<String> scans = new ArrayList<>();
        for (String plan : plans.get(planned)) {
          scans.add(scanSummary(plan));
          if (SEQ_SCAN.matcher(plan).find()) {
            seqScans.add(planned + ":\n" + plan);
          }
        }
        table.append(
            String.format(
                java.util.Locale.ROOT,
                "| %s | %.1f | %.1f | %.1f | %s |%n",
                planned,
                p50,
                p95,
                max,
                String.join("; ", scans)));
        if (p95 > 200) {
          slow.add(planned + " p95 " + p95 + " ms");
        }
      }
      System.out.println(table);
      for (Map.Entry<String, List<String>> e : plans.entrySet()) {
        System.out.println("== " + e.getKey());
        e.getValue().forEach(System.out::println);
      }
      assertThat(seqScans).as("statements reading a big table sequentially").isEmpty();
      assertThat(slow).as("pages over 200 ms at p95").isEmpty();
    }
  }

  private static Object solves(ConsoleQueries q, ConsoleQueries.Filter f, Cursor after) {
    return Pages.solves(f, q.solves(f, after), after == null);
  }

  private static ConsoleQueries.Filter filter() {
    return ConsoleQueries.Filter.none();
  }

  private static String write(JsonMapper json, Object value) {
    try {
      return json.writeValueAsString(value);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The scan nodes of a plan, one line each, shortened: what the table's last column shows. */
  static String scanSummary(String plan) {
    List<String> scans = new ArrayList<>();
    for (String line : plan.split("\n")) {
      String l = line.strip().replaceFirst("^->\\s*", "");
      if (l.contains("Scan") && !l.startsWith("Filter") && !l.startsWith("Index Cond")) {
        scans.add(l.replaceAll("\\s+\\(cost=.*$", ""));
      }
    }
    return String.join(", ", scans);
  }

  private static UUID pick(DataSource ds, String sql) throws Exception {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getObject(1, UUID.class);
    }
  }

  private static Cursor cursorAt(DataSource ds, int offset) throws Exception {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT created_at, id FROM captchajobs.solve ORDER BY created_at DESC, id"
                    + " OFFSET "
                    + offset
                    + " LIMIT 1")) {
      rs.next();
      return new Cursor(rs.getTimestamp(1).toInstant(), rs.getObject(2, UUID.class));
    }
  }

  /**
   * A week of solves, newest first by n: created 0.6 s apart; 20 clients and a tiny one; eight
   * types; 80 % claimed, 10 % expired, 5 % failed (five codes), a few solved, in flight and
   * waiting; 30 % in batches of 1,000; answers two thirds by push; 3 % of claims reported. Each
   * solve has a submit and a push event and one poll row.
   */
  private static void seed(DataSource ds) throws Exception {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("SET maintenance_work_mem = '256MB'");
      s.execute(
          "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
              + " status, task_id, error_code, error_class, batch, created_at, submitted_at,"
              + " solved_at, answered_via, claimed_at, report_verdict, reported_at, updated_at,"
              + " submits, polls)"
              + " SELECT gen_random_uuid(),"
              + " CASE WHEN n % 10000 = 0 THEN 'tiny' ELSE 'client-' || (n % 20) END,"
              + " 'order-' || n,"
              + " (ARRAY['TURNSTILE','RECAPTCHA_V2','RECAPTCHA_V3','IMAGE','GEETEST',"
              + "   'GEETEST_V4','CLOUDFLARE_CHALLENGE','RECAPTCHA_ENTERPRISE'])[1 + n % 8],"
              + " '{}'::jsonb, repeat('0', 64), st, (70000000000 + n)::text,"
              + " CASE WHEN st = 'FAILED' THEN (ARRAY['ERROR_CAPTCHA_UNSOLVABLE','ERROR_PROXY_BANNED',"
              + "   'DEADLINE_EXCEEDED','ERROR_BAD_TOKEN_OR_PAGEURL','ERROR_ZERO_BALANCE'])[1 + (n / 100) % 5]"
              + "   END,"
              + " CASE WHEN st = 'FAILED' THEN 'PERMANENT' END,"
              + " CASE WHEN n % 10 < 3 THEN 'batch-' || (n / 1000) END,"
              + " created, created + interval '100 ms',"
              + " CASE WHEN st IN ('SOLVED','CLAIMED','EXPIRED') THEN created + (2 + n % 20) * interval '1 s' END,"
              + " CASE WHEN st IN ('SOLVED','CLAIMED','EXPIRED') THEN CASE WHEN n % 3 = 0 THEN 'poll'"
              + "   ELSE 'push' END END,"
              + " CASE WHEN st = 'CLAIMED' THEN created + (3 + n % 20) * interval '1 s' END,"
              + " CASE WHEN st = 'CLAIMED' AND n % 50 = 1 THEN 'BAD'"
              + "   WHEN st = 'CLAIMED' AND n % 100 = 2 THEN 'GOOD' END,"
              + " CASE WHEN st = 'CLAIMED' AND (n % 50 = 1 OR n % 100 = 2)"
              + "   THEN created + (10 + n % 20) * interval '1 s' END,"
              + " created + interval '30 s', 1, 1"
              + " FROM (SELECT n, now() - n * interval '600 ms' AS created,"
              + "   CASE WHEN n <= 100 THEN 'SUBMITTED' WHEN n <= 300 THEN 'WAITING_FOR_THREAD'"
              + "   WHEN n % 100 < 80 THEN 'CLAIMED' WHEN n % 100 < 90 THEN 'EXPIRED'"
              + "   WHEN n % 100 < 93 THEN 'SOLVED' WHEN n % 100 < 98 THEN 'FAILED' ELSE 'CLAIMED' END AS st"
              + "   FROM generate_series(1, "
              + SOLVES
              + ") n) x");
      s.execute(
          "INSERT INTO captchajobs.solve_event (solve_id, at, kind, detail)"
              + " SELECT id, submitted_at, 'submit', 'submission 1, task ' || task_id || ', node worker-1'"
              + " FROM captchajobs.solve"
              + " UNION ALL SELECT id, solved_at - interval '20 ms', 'push', 'submission 1'"
              + " FROM captchajobs.solve WHERE answered_via = 'push'");
      s.execute(
          "INSERT INTO captchajobs.poll (solve_id, submit_no, poll_no, intended_at, called_at, outcome)"
              + " SELECT id, 1, 1, submitted_at + interval '5 s', submitted_at + interval '5 s',"
              + " CASE WHEN solved_at IS NOT NULL THEN 'SOLVED' ELSE 'CAPCHA_NOT_READY' END"
              + " FROM captchajobs.solve");
      s.execute("UPDATE captchajobs.gate SET capacity = 100 WHERE id = 1");
      s.execute(
          "INSERT INTO captchajobs.gate_slot (slot_no, solve_id, node, acquired_at, lease_until)"
              + " SELECT g, CASE WHEN g <= 60 THEN gen_random_uuid() END, 'worker-1', now(),"
              + " now() + interval '1 minute' FROM generate_series(1, 100) g");
      s.execute(
          "INSERT INTO captchajobs.breaker (key_fingerprint, open, error_code, reason, opened_at)"
              + " VALUES ('3cb80ae18c493bb4', false, 'ERROR_KEY_DOES_NOT_EXIST', 'bench', now())");
      s.execute(
          "INSERT INTO captchajobs.provider_threads (key_fingerprint, threads, working_threads,"
              + " read_at, taken_at) VALUES ('3cb80ae18c493bb4', 100, 61, now(), now())");
      s.execute("VACUUM ANALYZE captchajobs.solve");
      s.execute("VACUUM ANALYZE captchajobs.solve_event");
      s.execute("VACUUM ANALYZE captchajobs.poll");
      s.execute("ANALYZE");
    }
  }

  /**
   * A data source whose statements, while {@link #step} is set, are first run as {@code EXPLAIN}
   * with the same arguments; the plans are kept under the step.
   */
  static DataSource explaining(DataSource ds) {
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(method, ds, args);
              return result instanceof Connection c ? connection(c) : result;
            });
  }

  private static Connection connection(Connection c) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              Object result = invoke(method, c, args);
              if (method.getName().equals("prepareStatement") && args.length == 1 && step != null) {
                return statement(c, (String) args[0], (PreparedStatement) result);
              }
              return result;
            });
  }

  private static PreparedStatement statement(Connection c, String sql, PreparedStatement ps) {
    List<Object[]> sets = new ArrayList<>();
    return (PreparedStatement)
        Proxy.newProxyInstance(
            PreparedStatement.class.getClassLoader(),
            new Class<?>[] {PreparedStatement.class},
            (proxy, method, args) -> {
              if (method.getName().startsWith("set") && args != null && args.length == 2) {
                sets.add(new Object[] {method, args});
              }
              if (method.getName().equals("executeQuery")
                  || method.getName().equals("executeUpdate")) {
                String verb = sql.strip().toUpperCase(java.util.Locale.ROOT);
                if (verb.startsWith("SELECT") || verb.startsWith("WITH")) {
                  try (PreparedStatement explain = c.prepareStatement("EXPLAIN " + sql)) {
                    for (Object[] set : sets) {
                      ((Method) set[0]).invoke(explain, (Object[]) set[1]);
                    }
                    StringBuilder plan = new StringBuilder(sql).append('\n');
                    try (ResultSet rs = explain.executeQuery()) {
                      while (rs.next()) {
                        plan.append("  ").append(rs.getString(1)).append('\n');
                      }
                    }
                    plans.get(step).add(plan.toString());
                  }
                }
              }
              return invoke(method, ps, args);
            });
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}

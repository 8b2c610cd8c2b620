package com.captchajobs.worker.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Grafana dashboard ({@code ops/grafana/}) and the alert rules ({@code ops/prometheus/}) name
 * only metrics a worker really exports: a worker runs solves against the simulator (some wait for a
 * thread, some meet ERROR_ZERO_BALANCE, one is claimed), then every metric of every panel and rule
 * expression must be in its {@code /actuator/prometheus} output with the labels the expression
 * groups or filters by, and every exact label value it filters on.
 */
@Execution(ExecutionMode.CONCURRENT)
class DashboardAndAlertMetricsTest {

  static final String KEY = "opsDashboardKeyOPSdashboardKey12";
  static final String BACKUP_KEY = "opsBackupKeyOPSbackupKeyOPSback2";
  static final Path DASHBOARD = Path.of("..", "ops", "grafana", "captchajobs-fleet.json");
  static final Path RULES = Path.of("..", "ops", "prometheus", "captchajobs-alerts.yml");

  static final Pattern METRIC = Pattern.compile("\\bcaptchajobs_[a-z_]+");
  static final Pattern BY = Pattern.compile("\\bby\\s*\\(([^)]*)\\)");
  static final Pattern MATCHER = Pattern.compile("(captchajobs_[a-z_]+)\\{([^}]*)}");
  static final Pattern EQUALS = Pattern.compile("([a-z_]+)\\s*=\\s*\"([^\"]*)\"");
  static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s");
  static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  @Test
  void everyMetricOfTheDashboardAndTheAlertRulesIsExportedWithItsLabels() throws IOException {
    List<String> expressions = new ArrayList<>(dashboardExpressions());
    int panelExpressions = expressions.size();
    expressions.addAll(ruleExpressions());
    assertThat(panelExpressions).isGreaterThanOrEqualTo(15);
    assertThat(expressions.size() - panelExpressions).isGreaterThanOrEqualTo(5);

    assertEveryExpressionIsExported(expressions, scrapeAfterSolves());
  }

  /**
   * Every series the dashboard and the rules query exists from startup, before any solve, error or
   * claim: the labels known in advance (captcha types, submit kinds, error codes and classes) at
   * zero, so that panels show 0 rather than "No data" and rate-based alerts can tell zero from
   * absent.
   */
  @Test
  void everyMetricOfTheDashboardAndTheAlertRulesIsExportedFromStartupBeforeTheFirstSolve()
      throws IOException {
    List<String> expressions = new ArrayList<>(dashboardExpressions());
    expressions.addAll(ruleExpressions());
    Map<String, Map<String, Set<String>>> exported;
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder().account(KEY, 3).timeScale(0.05).build().start();
        CaptchaAiSimulator backup = backup();
        WorkerNode node =
            WorkerNode.onFreshDatabase(
                sim, KEY, withBackup(Map.of("captchaai.threads", "3"), backup))) {
      HttpResponse<String> r = node.get("/actuator/prometheus");
      assertThat(r.statusCode()).isEqualTo(200);
      exported = parse(r.body());
      assertThat(sim.stats(KEY).acceptedSubmits()).as("no solve before the scrape").isZero();
    }
    assertEveryExpressionIsExported(expressions, exported);
    assertThat(exported.get("captchajobs_errors_total").get("class"))
        .as("every error class is there at zero")
        .contains(
            "credential",
            "request",
            "image",
            "proxy",
            "unsolvable",
            "threads",
            "transient",
            "deadline");
    assertThat(exported.get("captchajobs_token_age_seconds_bucket").get("type"))
        .contains("TURNSTILE", "RECAPTCHA_V2", "IMAGE");
  }

  private static void assertEveryExpressionIsExported(
      List<String> expressions, Map<String, Map<String, Set<String>>> exported) {
    for (String expr : expressions) {
      Set<String> metrics = new LinkedHashSet<>();
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        metrics.add(m.group());
      }
      assertThat(metrics).as("an expression without our metrics: %s", expr).isNotEmpty();
      for (String metric : metrics) {
        assertThat(exported).as("%s (in %s) is exported", metric, expr).containsKey(metric);
      }
      Matcher by = BY.matcher(expr);
      while (by.find()) {
        for (String label : by.group(1).split(",")) {
          String l = label.strip();
          if (l.isEmpty()) {
            continue;
          }
          assertThat(metrics.stream().anyMatch(x -> exported.get(x).containsKey(l)))
              .as("label %s of %s is on one of %s", l, expr, metrics)
              .isTrue();
        }
      }
      Matcher selector = MATCHER.matcher(expr);
      while (selector.find()) {
        Map<String, Set<String>> labels = exported.get(selector.group(1));
        Matcher eq = EQUALS.matcher(selector.group(2));
        while (eq.find()) {
          assertThat(labels)
              .as("%s has label %s", selector.group(1), eq.group(1))
              .containsKey(eq.group(1));
          assertThat(labels.get(eq.group(1)))
              .as("%s{%s} has the value %s", selector.group(1), eq.group(1), eq.group(2))
              .contains(eq.group(2));
        }
      }
    }
  }

  /** Runs solves through a worker on a plan smaller than its cap, then scrapes it. */
  Map<String, Map<String, Set<String>>> scrapeAfterSolves() {
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder().account(KEY, 3).timeScale(0.05).build().start();
        CaptchaAiSimulator backup = backup()) {
      Map<String, String> props =
          withBackup(
              Map.of(
                  "captchaai.threads", "3",
                  "captchaai.first-poll-wait.TURNSTILE", "1s"),
              backup);
      try (WorkerNode node = WorkerNode.onFreshDatabase(sim, KEY, props)) {
        // the plan has one thread for a cap of three: the submits that overlap the first task meet
        // ERROR_ZERO_BALANCE (a plan of none would read as a key that does not exist)
        sim.setThreads(KEY, 1);
        SolveProbe solves = node.probe();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          ids.add(solves.turnstile("dash-" + i));
        }
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> sim.stats(KEY).rejected("ERROR_ZERO_BALANCE") > 0);
        sim.setThreads(KEY, 2);
        com.captchajobs.core.Solves api = node.bean(CaptchaJobs.class).solves();
        await()
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> ids.stream().allMatch(id -> api.status(id).status().isFinal()));
        assertThat(api.status(ids.get(0)).status()).isEqualTo(SolveStatus.SOLVED);
        api.claim(ids.get(0));

        HttpResponse<String> r = node.get("/actuator/prometheus");
        assertThat(r.statusCode()).isEqualTo(200);
        return parse(r.body());
      }
    }
  }

  /**
   * A priced backup provider (issue 36): the provider panel and rules read its spend and budget,
   * which a fleet without priced providers has no series for. The primary stays healthy, so no
   * solve goes to it.
   */
  static CaptchaAiSimulator backup() {
    return CaptchaAiSimulator.builder()
        .name("backup")
        .account(
            BACKUP_KEY,
            com.captchajobs.simulator.KeyPlan.threads(2)
                .price("TURNSTILE", "1.45")
                .price("RECAPTCHA_V2", "2.99")
                .price("IMAGE", "0.50"))
        .timeScale(0.05)
        .build()
        .start();
  }

  static Map<String, String> withBackup(Map<String, String> props, CaptchaAiSimulator backup) {
    Map<String, String> out = new HashMap<>(props);
    String p = "captchajobs.providers.backup.";
    out.put(p + "base-url", backup.baseUrl());
    out.put(p + "api-key", BACKUP_KEY);
    out.put(p + "threads", "2");
    out.put(p + "role", "backup");
    out.put(p + "price.TURNSTILE", "1.45");
    out.put(p + "price.RECAPTCHA_V2", "2.99");
    out.put(p + "price.IMAGE", "0.50");
    out.put(p + "daily-budget", "5.00");
    return out;
  }

  /** Metric name → label name → values seen, from the Prometheus text format. */
  static Map<String, Map<String, Set<String>>> parse(String text) {
    Map<String, Map<String, Set<String>>> out = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      if (!m.find()) {
        continue;
      }
      Map<String, Set<String>> labels = out.computeIfAbsent(m.group(1), k -> new HashMap<>());
      if (m.group(3) != null) {
        Matcher l = LABEL.matcher(m.group(3));
        while (l.find()) {
          labels.computeIfAbsent(l.group(1), k -> new HashSet<>()).add(l.group(2));
        }
      }
    }
    return out;
  }

  static List<String> dashboardExpressions() throws IOException {
    JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
    List<String> out = new ArrayList<>();
    for (JsonNode panel : dashboard.get("panels")) {
      assertThat(panel.get("title").stringValue()).isNotBlank();
      for (JsonNode target : panel.get("targets")) {
        out.add(target.get("expr").stringValue());
      }
    }
    return out;
  }

  /** The {@code expr:} of every rule (each on one line). */
  static List<String> ruleExpressions() throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(RULES)) {
      String s = line.strip();
      if (s.startsWith("expr:")) {
        out.add(s.substring(5).strip());
      }
    }
    return out;
  }
}

package com.captchajobs.app.sandbox;

import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.spring.boot.CaptchaAiProperties;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * The sandbox's one log block: what runs where, the credentials, and curl commands to try it. It
 * prints only the credentials the sandbox generated itself (they are in its own property source); a
 * token or password that was configured stays out of the log and is named by its property.
 */
final class SandboxBanner implements ApplicationListener<ApplicationReadyEvent> {

  private static final Logger log = LoggerFactory.getLogger(SandboxBanner.class);

  @Override
  public void onApplicationEvent(ApplicationReadyEvent event) {
    log.info(text(event.getApplicationContext().getEnvironment()));
  }

  static String text(ConfigurableEnvironment env) {
    PropertySource<?> generated = env.getPropertySources().get(SandboxEnvironment.SOURCE);
    PingbackSettings pingbacks = CaptchaAiProperties.of(env).toPingbacks();
    String address = env.getProperty("server.address");
    String host =
        address == null || address.isBlank() || address.equals("0.0.0.0") ? "localhost" : address;
    String app = "http://" + host + ":" + env.getProperty("local.server.port", "8080");
    // Actuator lives on the management port, not the API port (open there: plain health only)
    String management =
        "http://"
            + host
            + ":"
            + env.getProperty(
                "local.management.port", env.getProperty("management.server.port", "8082"));
    String token =
        generated(generated, "captchajobs.api.tokens")
            .orElse("<a token of captchajobs.api.tokens>");
    String auth = "-H 'Authorization: Bearer " + token + "'";
    boolean dashboard = env.getProperty("captchajobs.dashboard.enabled", Boolean.class, false);
    String dashboardLine =
        dashboard
            ? "http://"
                + host
                + ":"
                + env.getProperty("captchajobs.dashboard.port", "8000")
                + "/dashboard"
                + "  (user "
                + env.getProperty("captchajobs.dashboard.username")
                + ", password "
                + generated(generated, "captchajobs.dashboard.password")
                    .orElse("of captchajobs.dashboard.password")
                + ")"
            : "off";
    String consoleLine =
        dashboard
            ? "http://"
                + host
                + ":"
                + env.getProperty("captchajobs.dashboard.port", "8000")
                + "/console/"
                + "  (the dashboard's user and password)"
            : "off";
    String simulator = env.getProperty(SandboxEnvironment.PREFIX + "simulator-url");
    String database =
        env.getProperty(
            SandboxEnvironment.PREFIX + "database", "configured: spring.datasource.url");
    return "\n"
        + "================================ CaptchaJobs sandbox ================================\n"
        + "  REST API     "
        + app
        + "/api/solves\n"
        + "  health       "
        + management
        + "/actuator/health\n"
        + "  dashboard    "
        + dashboardLine
        + "\n"
        + "  console      "
        + consoleLine
        + "\n"
        + "  CaptchaAI    "
        + (simulator != null
            ? "simulator "
                + simulator
                + " (sandbox key, "
                + env.getProperty("captchaai.threads")
                + " threads)"
            : env.getProperty("captchaai.base-url"))
        + "\n"
        + "  database     "
        + database
        + "\n"
        + "  worker       "
        + (env.getProperty("captchajobs.worker.enabled", Boolean.class, false)
            ? "in this process"
            : "none (start a worker node)")
        + "\n"
        + "  answers      "
        + (pingbacks.asksForPushes()
            ? "pushed to " + pingbacks.url() + "/... (polls: fallback)"
            : "polled every 5 s (no captchaai.pingback-url)")
        + "\n"
        + "  API token    "
        + token
        + "\n"
        + "\n"
        + "  Enqueue a Turnstile solve:\n"
        + "    curl -s -X POST "
        + app
        + "/api/solves "
        + auth
        + " -H 'Content-Type: application/json' \\\n"
        + "      -d '{\"businessKey\":\"try-1\",\"type\":\"TURNSTILE\",\"sitekey\":\"0x4AAAAAAADnPIDROrmt1Wwj\","
        + "\"pageUrl\":\"https://example.com/login\"}'\n"
        + "  Read its status (use the id from the answer; status SOLVED after a few seconds):\n"
        + "    curl -s "
        + app
        + "/api/solves/<id> "
        + auth
        + "\n"
        + "  Watch it as server-sent events:\n"
        + "    curl -N "
        + app
        + "/api/solves/<id>/events "
        + auth
        + "\n"
        + "  Claim its token (once):\n"
        + "    curl -s -X POST "
        + app
        + "/api/solves/<id>/claim "
        + auth
        + "\n"
        + "  Report the claimed token bad if the site refused it (once, within captchajobs.report-window of the claim):\n"
        + "    curl -s -X POST "
        + app
        + "/api/solves/<id>/report "
        + auth
        + " -H 'Content-Type: application/json' -d '{\"verdict\":\"BAD\"}'\n"
        + "  A demo batch of every kind of outcome: restart with --captchajobs.demo=true\n"
        + "=====================================================================================";
  }

  /** A value the sandbox generated, never one that was configured. */
  private static Optional<String> generated(PropertySource<?> source, String name) {
    if (source == null || !(source.getProperty(name) instanceof String value)) {
      return Optional.empty();
    }
    return Optional.of(value.split(",")[0].strip());
  }
}

package com.captchajobs.app.sandbox;

import com.captchajobs.app.AppApplication;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.core.client.CaptchaType;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The embedded default of the app node: what the user did not configure is started here, before
 * the context exists. No {@code spring.datasource.url}: an embedded PostgreSQL. No {@code
 * captchaai.api-key} (nor {@code CAPTCHAAI_API_KEY}): the bundled simulator. When either part runs,
 * the node also runs a worker and the JobRunr dashboard with generated credentials, and an API
 * bearer token and a webhook secret are generated, each only when the user set none. {@link
 * SandboxBanner} prints it all once the node is up.
 *
 * <p>Only the app node ({@link AppApplication}) gets a sandbox: an existing app that uses the
 * library never starts a database by surprise. {@code captchajobs.sandbox.enabled=false} turns it
 * off on the app node too.
 */
public class SandboxEnvironment implements EnvironmentPostProcessor {

  /** Solve times of the sandbox simulator, as a fraction of CaptchaAI's real ones. */
  static final double SIMULATOR_TIME_SCALE = 0.2;
  static final int SIMULATOR_THREADS = 5;
  static final int DEFAULT_DASHBOARD_PORT = 8000;
  static final String PREFIX = "captchajobs.sandbox.";

  private static final SecureRandom RANDOM = new SecureRandom();

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
    if (!application.getAllSources().contains(AppApplication.class)
        || !env.getProperty(PREFIX + "enabled", Boolean.class, true)) {
      return;
    }
    SandboxParts parts = new SandboxParts();
    Map<String, Object> props = new LinkedHashMap<>();
    try {
      if (!has(env, "spring.datasource.url")) {
        // Stopped by the context (last), not by zonky's own JVM hook, which would race Spring's.
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().setRegisterShutdownHook(false).start();
        parts.add(postgres);
        String url = postgres.getJdbcUrl("postgres", "postgres");
        props.put("spring.datasource.url", url);
        props.put("spring.datasource.username", "postgres");
        props.put(PREFIX + "database", "embedded PostgreSQL " + url);
      }
      if (!has(env, "captchaai.api-key") && !has(env, "CAPTCHAAI_API_KEY")) {
        int threads = env.getProperty("captchaai.threads", Integer.class, SIMULATOR_THREADS);
        CaptchaAiSimulator simulator = CaptchaAiSimulator.builder()
            .account(CaptchaAiSimulator.SANDBOX_KEY, threads)
            .timeScale(SIMULATOR_TIME_SCALE)
            .build()
            .start();
        parts.add(simulator);
        props.put("captchaai.api-key", CaptchaAiSimulator.SANDBOX_KEY);
        props.put("captchaai.base-url", simulator.baseUrl());
        props.put("captchaai.threads", String.valueOf(threads));
        // The simulator solves in a fifth of the real time: do not wait the real first-poll times.
        for (CaptchaType type : CaptchaType.values()) {
          putIfUnset(env, props, "captchaai.first-poll-wait." + type, "2s");
        }
        props.put(PREFIX + "simulator-url", simulator.baseUrl());
      }
    } catch (IOException e) {
      parts.destroy();
      throw new UncheckedIOException("The sandbox could not start embedded PostgreSQL", e);
    } catch (RuntimeException e) {
      parts.destroy();
      throw e;
    }
    if (parts.isEmpty()) {
      return; // database and provider configured: a plain app node
    }
    putIfUnset(env, props, "jobrunr.background-job-server.enabled", "true");
    putIfUnset(env, props, "jobrunr.dashboard.enabled", "true");
    if (env.getProperty("jobrunr.dashboard.enabled", Boolean.class,
        Boolean.parseBoolean(String.valueOf(props.getOrDefault("jobrunr.dashboard.enabled", "false"))))) {
      putIfUnset(env, props, "jobrunr.dashboard.port", String.valueOf(dashboardPort()));
      if (!has(env, "jobrunr.dashboard.username")) {
        props.put("jobrunr.dashboard.username", "admin");
        props.put("jobrunr.dashboard.password", secret(12));
      }
    }
    putIfUnset(env, props, "captchajobs.api.tokens", secret(24));
    putIfUnset(env, props, "captchajobs.webhook.secret", secret(24));
    props.put(PREFIX + "active", "true");
    env.getPropertySources().addFirst(new MapPropertySource("captchajobs-sandbox", props));

    application.addListeners(new SandboxBanner());
    application.addListeners((ApplicationPreparedEvent event) -> {
      DefaultListableBeanFactory beans = (DefaultListableBeanFactory) event.getApplicationContext().getBeanFactory();
      beans.registerSingleton("captchaJobsSandboxParts", parts);
      beans.registerDisposableBean("captchaJobsSandboxParts", parts);
    });
    // Not a JVM shutdown hook of our own: it would stop the database while Spring's hook is still
    // closing the beans that use it.
    application.addListeners((ApplicationFailedEvent event) -> parts.destroy());
  }

  private static boolean has(ConfigurableEnvironment env, String key) {
    String value = env.getProperty(key);
    return value != null && !value.isBlank();
  }

  private static void putIfUnset(ConfigurableEnvironment env, Map<String, Object> props, String key, String value) {
    if (!has(env, key)) {
      props.put(key, value);
    }
  }

  /** 8000 as operators expect, or a free port when something else has it (a second sandbox). */
  private static int dashboardPort() {
    try (ServerSocket s = new ServerSocket(DEFAULT_DASHBOARD_PORT, 1, InetAddress.getByName("0.0.0.0"))) {
      return DEFAULT_DASHBOARD_PORT;
    } catch (IOException busy) {
      try (ServerSocket s = new ServerSocket(0)) {
        return s.getLocalPort();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static String secret(int bytes) {
    byte[] b = new byte[bytes];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}

package com.captchajobs.app.sandbox;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.spring.boot.CaptchaAiProperties;
import com.captchajobs.spring.boot.MissingPropertyException;
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
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The app node's sandbox, and the one place that decides whether it runs. It starts only where
 * nothing is configured (neither {@code spring.datasource.url} nor a CaptchaAI key), or when {@code
 * captchajobs.sandbox.enabled=true}. Then it starts what is missing (embedded PostgreSQL, the
 * bundled simulator), turns on an in-process worker and the dashboard, and generates the
 * credentials nobody set (dashboard, API token, webhook secret), all with {@link #secret}. A node
 * given a database never gets a simulator from here, and never touches the fleet cap unless it is a
 * worker. {@link SandboxBanner} prints it all once the node is up, with the credentials it
 * generated (and none that were configured).
 *
 * <p>Registered by {@code AppApplication} only: an application that uses the library never starts a
 * database by surprise.
 */
public class SandboxEnvironment
    implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {

  /** Solve times of the sandbox simulator, as a fraction of CaptchaAI's real ones. */
  static final double SIMULATOR_TIME_SCALE = 0.2;

  static final int SIMULATOR_THREADS = 5;
  static final int DEFAULT_DASHBOARD_PORT = 8000;
  static final String PREFIX = "captchajobs.sandbox.";

  /** The property source of everything the sandbox set or generated. */
  static final String SOURCE = "captchajobs-sandbox";

  /**
   * The one switch: true forces the sandbox, false forbids it, unset means "when nothing is set".
   */
  public static final String ENABLED = PREFIX + "enabled";

  private static final SecureRandom RANDOM = new SecureRandom();

  /** Boot's view over every other source, and its source of default properties. */
  private static final String ATTACHED_SOURCE = "configurationProperties";

  private static final String DEFAULTS_SOURCE = "defaultProperties";

  private final Map<String, Object> nodeDefaults;

  /**
   * @param nodeDefaults the app node's own defaults, which do not count as configuration
   */
  public SandboxEnvironment(Map<String, Object> nodeDefaults) {
    this.nodeDefaults = Map.copyOf(nodeDefaults);
  }

  @Override
  public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
    ConfigurableEnvironment env = event.getEnvironment();
    if (isSandbox(env)) {
      start(env, event.getSpringApplication());
    } else if (!has(env, "spring.datasource.url")) {
      throw new MissingPropertyException(
          "spring.datasource.url",
          "spring.datasource.url is required: this app node has a CaptchaAI key but no database, and"
              + " it does not improvise one. Set spring.datasource.url (and spring.datasource.password"
              + " in the environment), or set neither the database nor the key for the sandbox.");
    }
  }

  /** Whether this node is a sandbox: forced on, or nothing configured and not forced off. */
  public boolean isSandbox(ConfigurableEnvironment env) {
    Boolean forced = env.getProperty(ENABLED, Boolean.class);
    if (forced != null) {
      return forced;
    }
    return !has(env, "spring.datasource.url") && !hasKey(env);
  }

  private boolean hasKey(ConfigurableEnvironment env) {
    return has(env, "captchaai.api-key") || has(env, "CAPTCHAAI_API_KEY");
  }

  private void start(ConfigurableEnvironment env, SpringApplication application) {
    SandboxParts parts = new SandboxParts();
    Map<String, Object> props = new LinkedHashMap<>();
    try {
      if (!has(env, "spring.datasource.url")) {
        // Stopped by the context (last), not by zonky's own JVM hook, which would race Spring's.
        EmbeddedPostgres postgres =
            EmbeddedPostgres.builder().setRegisterShutdownHook(false).start();
        parts.add(postgres);
        String url = postgres.getJdbcUrl("postgres", "postgres");
        props.put("spring.datasource.url", url);
        props.put("spring.datasource.username", "postgres");
        props.put(PREFIX + "database", "embedded PostgreSQL " + url);
      }
      if (!hasKey(env)) {
        if (has(env, "spring.datasource.url")) {
          throw new MissingPropertyException(
              "captchaai.api-key",
              "captchajobs.sandbox.enabled=true with spring.datasource.url set and no"
                  + " captchaai.api-key: the sandbox never puts its simulator on a configured"
                  + " database. Set CAPTCHAAI_API_KEY, or remove spring.datasource.url.");
        }
        int threads = env.getProperty("captchaai.threads", Integer.class, SIMULATOR_THREADS);
        CaptchaAiSimulator simulator =
            CaptchaAiSimulator.builder()
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
        pushAnswers(env, props);
      }
    } catch (IOException e) {
      parts.destroy();
      throw new UncheckedIOException("The sandbox could not start embedded PostgreSQL", e);
    } catch (RuntimeException e) {
      parts.destroy();
      throw e;
    }
    putIfUnset(env, props, "captchajobs.worker.enabled", "true");
    putIfUnset(env, props, "captchajobs.dashboard.enabled", "true");
    putIfUnset(env, props, "captchajobs.dashboard.port", String.valueOf(dashboardPort()));
    if (!has(env, "captchajobs.dashboard.username")
        && !has(env, "captchajobs.dashboard.password")) {
      props.put("captchajobs.dashboard.username", "captchajobs");
      props.put("captchajobs.dashboard.password", secret(18));
    }
    putIfUnset(env, props, "captchajobs.api.tokens", secret(24));
    putIfUnset(env, props, "captchajobs.webhook.secret", secret(24));
    props.put(PREFIX + "active", "true");
    env.getPropertySources().addFirst(new MapPropertySource(SOURCE, props));

    application.addListeners(new SandboxBanner());
    application.addListeners(
        (ApplicationPreparedEvent event) -> {
          DefaultListableBeanFactory beans =
              (DefaultListableBeanFactory) event.getApplicationContext().getBeanFactory();
          beans.registerSingleton("captchaJobsSandboxParts", parts);
          beans.registerDisposableBean("captchaJobsSandboxParts", parts);
        });
    // Not a JVM shutdown hook of our own: it would stop the database while Spring's hook is still
    // closing the beans that use it.
    application.addListeners((ApplicationFailedEvent event) -> parts.destroy());
  }

  /**
   * The simulator pushes answers to this node's pingback endpoint (polling is the fallback), so
   * that a newcomer sees the fast path. Not on a random port ({@code server.port=0}, as in tests):
   * the URL must be known before the node starts; nor on an address off this host, where a pingback
   * URL must be https.
   */
  private void pushAnswers(ConfigurableEnvironment env, Map<String, Object> props) {
    String port = env.getProperty("server.port", "8080");
    if (CaptchaAiProperties.of(env).toPingbacks().asksForPushes() || "0".equals(port.trim())) {
      return;
    }
    String address = env.getProperty("server.address", "127.0.0.1");
    if (address.isBlank() || address.equals("0.0.0.0") || address.equals("::")) {
      address = "127.0.0.1";
    }
    if (!address.equals("localhost") && !address.startsWith("127.") && !address.equals("::1")) {
      return; // a pingback URL off this host must be https, which the sandbox does not serve
    }
    String host = address.contains(":") ? "[" + address + "]" : address;
    props.put(
        "captchaai.pingback-url", "http://" + host + ":" + port.trim() + "/captchaai/pingback");
    putIfUnset(env, props, "captchaai.pingback-secret", secret(32));
  }

  /**
   * Whether the operator set {@code key}: the node's own defaults do not count, so that the sandbox
   * can still turn the worker on.
   */
  private boolean has(ConfigurableEnvironment env, String key) {
    for (PropertySource<?> source : env.getPropertySources()) {
      if (source.getName().equals(ATTACHED_SOURCE)) {
        continue;
      }
      Object value = source.getProperty(key);
      if (value == null || value.toString().isBlank()) {
        continue;
      }
      boolean nodeDefault =
          source.getName().equals(DEFAULTS_SOURCE) && value.equals(nodeDefaults.get(key));
      if (!nodeDefault) {
        return true;
      }
    }
    return false;
  }

  private void putIfUnset(
      ConfigurableEnvironment env, Map<String, Object> props, String key, String value) {
    if (!has(env, key)) {
      props.put(key, value);
    }
  }

  /** 8000 as operators expect, or a free port when something else has it (a second sandbox). */
  private static int dashboardPort() {
    try (ServerSocket s =
        new ServerSocket(DEFAULT_DASHBOARD_PORT, 1, InetAddress.getByName("0.0.0.0"))) {
      return DEFAULT_DASHBOARD_PORT;
    } catch (IOException busy) {
      try (ServerSocket s = new ServerSocket(0)) {
        return s.getLocalPort();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The one generator of sandbox credentials: URL-safe random text of {@code bytes} bytes. */
  static String secret(int bytes) {
    byte[] b = new byte[bytes];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}

package com.captchajobs.core.internal.provider;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.settings.PingbackSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the pingback URL's host with the provider when a worker starts (see "Registration" in
 * docs/pingback.md): {@code res.php?action=add_pingback&addr=<host>}, then {@code get_pingback} to
 * see it listed. 2captcha-style services push only to registered addresses; whether CaptchaAI does
 * is not documented, so whatever comes back (OK, an error code, an unknown action, no answer at
 * all) is logged once, at INFO when the host is listed and WARN otherwise, and never stops the
 * node. Turned off with {@code captchaai.pingback-register=false}.
 */
public final class PingbackRegistration {

  private static final Logger log = LoggerFactory.getLogger(PingbackRegistration.class);

  private final CaptchaAiClient client;

  public PingbackRegistration(CaptchaAiClient client) {
    this.client = client;
  }

  /** Registers and checks in a thread of its own, so a slow provider never holds up the start. */
  public void startFor(String pingbackUrl) {
    Thread thread = new Thread(() -> register(pingbackUrl), "captchajobs-pingback-registration");
    thread.setDaemon(true);
    thread.start();
  }

  /** Registers the host of {@code pingbackUrl} and checks it is listed; logs one line. */
  public void register(String pingbackUrl) {
    String host = PingbackSettings.host(pingbackUrl);
    String added;
    String listed;
    try {
      added = client.addPingback(host);
      listed = client.pingbackAddresses();
    } catch (RuntimeException e) {
      log.warn(
          "Could not register {} for pushes with the provider (add_pingback/get_pingback: {});"
              + " pushes may not arrive (polling covers them). Set captchaai.pingback-register"
              + "=false if the provider does not manage addresses",
          host,
          e instanceof CaptchaAiException c ? c.errorCode() : e.getClass().getSimpleName());
      return;
    }
    if (added.startsWith("OK") && listed.contains(host)) {
      log.info(
          "Registered {} for pushes with the provider (add_pingback: {}; get_pingback lists it)",
          host,
          added);
    } else {
      log.warn(
          "Registering {} for pushes: add_pingback answered {}, get_pingback answered {}; pushes"
              + " may not arrive (polling covers them). Set captchaai.pingback-register=false if the"
              + " provider does not manage addresses",
          host,
          brief(added),
          brief(listed));
    }
  }

  /** A provider's answer in a log line: at most 200 characters. */
  private static String brief(String answer) {
    return answer.length() <= 200 ? answer : answer.substring(0, 200) + "...";
  }
}

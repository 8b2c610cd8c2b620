package com.captchajobs.core.pingback;

import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.PingbackSettings;

/**
 * The rules of the pingback settings, which {@link PingbackSettings} owns: kept here for callers of
 * this class, each method hands over to it.
 */
public final class PingbackRules {

  private PingbackRules() {}

  /**
   * Refuses a pingback URL and secret that cannot work (see {@link PingbackSettings}).
   *
   * @param url the pingback URL, or null
   * @param secret the pingback secret, or null
   * @throws InvalidSettingException naming {@code PingbackSettings.url(String)} or {@code
   *     PingbackSettings.secret(String)}
   */
  public static void check(String url, String secret) {
    new PingbackSettings(url, secret, PingbackSettings.DEFAULT_REGISTER);
  }

  /** {@link PingbackSettings#clearTextOffLoopback}. */
  public static boolean clearTextOffLoopback(String url) {
    return PingbackSettings.clearTextOffLoopback(url);
  }

  /** {@link PingbackSettings#host}. */
  public static String host(String url) {
    return PingbackSettings.host(url);
  }
}

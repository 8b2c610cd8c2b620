package com.captchajobs.core.internal.node;

/**
 * The pushes of answers by the provider.
 *
 * @param url where the provider pushes answers, or null on a node that only receives them
 * @param secret the fleet's key of the pingback signatures
 * @param register whether a worker registers the URL's host with the provider at startup
 */
public record PingbackSettings(String url, String secret, boolean register) {

  /** Never the secret. */
  @Override
  public String toString() {
    return "PingbackSettings{url=" + url + ", secret=***, register=" + register + "}";
  }
}

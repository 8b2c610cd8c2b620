package com.captchajobs.core;

import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.pingback.PingbackReceiver;

/** The public face of the engine's {@link Pingbacks}. */
final class RealPingbackReceiver implements PingbackReceiver {

  private final Pingbacks pingbacks;

  RealPingbackReceiver(Pingbacks pingbacks) {
    this.pingbacks = pingbacks;
  }

  @Override
  public Verdict receive(String solveId, String submitNo, String signature) {
    return switch (pingbacks.receive(solveId, submitNo, signature)) {
      case RANG -> Verdict.RANG;
      case REFUSED -> Verdict.REFUSED;
    };
  }
}

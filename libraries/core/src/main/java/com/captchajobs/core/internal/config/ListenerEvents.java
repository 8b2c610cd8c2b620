package com.captchajobs.core.internal.config;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.events.EngineListener;
import java.time.Duration;

/** The engine's events told to a public {@link EngineListener}, one for one. */
final class ListenerEvents implements EngineEvents {

  private final EngineListener listener;

  ListenerEvents(EngineListener listener) {
    this.listener = listener;
  }

  @Override
  public void submitted(CaptchaType type, boolean resumed) {
    listener.submitted(type, resumed);
  }

  @Override
  public void solved(CaptchaType type, Duration latency, int polls) {
    listener.solved(type, latency, polls);
  }

  @Override
  public void answered(CaptchaType type, boolean pushed) {
    listener.answered(type, pushed);
  }

  @Override
  public void error(String code, ErrorClass errorClass) {
    listener.error(code, errorClass);
  }

  @Override
  public void polled(CaptchaType type, Duration lateness) {
    listener.polled(type, lateness);
  }

  @Override
  public void claimed(CaptchaType type, Duration age) {
    listener.claimed(type, age);
  }

  @Override
  public void handedOff(Duration delay) {
    listener.handedOff(delay);
  }

  @Override
  public void reported(CaptchaType type, Verdict verdict) {
    listener.reported(type, verdict);
  }
}

package com.captchajobs.worker.config;

import com.captchajobs.worker.client.CaptchaAiException;
import com.captchajobs.worker.client.ErrorClass;
import com.captchajobs.worker.client.ThreadsInfo;
import com.captchajobs.worker.engine.Breaker;
import com.captchajobs.worker.engine.FleetGate;
import com.captchajobs.worker.engine.PlanCheck;
import com.captchajobs.worker.engine.Reconciler;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * A worker's start: the preflight against the plan (before JobRunr starts taking jobs), the fleet
 * cap in the gate, then the recurring repair pass once the node is ready.
 */
public class WorkerStartup implements InitializingBean, ApplicationListener<ApplicationReadyEvent>, DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(WorkerStartup.class);

  private final CaptchaAiProperties properties;
  private final FleetGate gate;
  private final PlanCheck planCheck;
  private final Breaker breaker;
  private final Reconciler reconciler;
  private ScheduledExecutorService executor;

  public WorkerStartup(
      CaptchaAiProperties properties, FleetGate gate, PlanCheck planCheck, Breaker breaker, Reconciler reconciler) {
    this.properties = properties;
    this.gate = gate;
    this.planCheck = planCheck;
    this.breaker = breaker;
    this.reconciler = reconciler;
  }

  @Override
  public void afterPropertiesSet() {
    preflight();
    gate.resize(properties.getThreads());
  }

  private void preflight() {
    if (!properties.isPreflight()) {
      return;
    }
    ThreadsInfo info;
    try {
      info = planCheck.read();
    } catch (CaptchaAiException e) {
      if (e.errorClass() == ErrorClass.CREDENTIAL) {
        breaker.open(e.errorCode(), "preflight threadsinfo answered " + e.errorCode());
        log.error("CaptchaAI rejected the API key at start ({}): breaker OPEN, health DOWN, no"
            + " submissions until an operator closes it", e.errorCode());
      } else {
        log.warn("Preflight threadsinfo failed ({}, {}): starting without a plan check",
            e.errorCode(), e.errorClass());
      }
      return;
    }
    int usable = info.threads() - properties.getThreadsReserve();
    log.info("CaptchaAI plan: {} threads, {} busy; fleet cap captchaai.threads={} (reserve {})",
        info.threads(), info.workingThreads(), properties.getThreads(), properties.getThreadsReserve());
    if (properties.getThreads() > usable) {
      throw new IllegalStateException("captchaai.threads=" + properties.getThreads()
          + " exceeds the plan's " + info.threads() + " threads minus captchaai.threads-reserve="
          + properties.getThreadsReserve() + " (at most " + usable + " allowed)");
    }
  }

  @Override
  public void onApplicationEvent(ApplicationReadyEvent event) {
    if (executor != null) {
      return;
    }
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "captchajobs-reconciler");
      t.setDaemon(true);
      return t;
    });
    long period = properties.getReconcileInterval().toMillis();
    executor.scheduleWithFixedDelay(reconciler, period, period, TimeUnit.MILLISECONDS);
    long check = properties.getProviderCheckInterval().toMillis();
    executor.scheduleWithFixedDelay(this::checkProvider, check, check, TimeUnit.MILLISECONDS);
  }

  /** The periodic threadsinfo published as captchajobs.provider.* gauges. */
  private void checkProvider() {
    try {
      planCheck.read();
    } catch (CaptchaAiException e) {
      if (e.errorClass() == ErrorClass.CREDENTIAL) {
        breaker.open(e.errorCode(), "threadsinfo answered " + e.errorCode());
        log.error("CaptchaAI rejected the API key ({}): breaker OPEN", e.errorCode());
      } else {
        log.warn("threadsinfo failed: {} ({})", e.errorCode(), e.errorClass());
      }
    } catch (RuntimeException e) {
      log.warn("threadsinfo failed: {}", e.toString());
    }
  }

  @Override
  public void destroy() {
    if (executor != null) {
      executor.shutdownNow();
    }
  }
}

package com.captchajobs.bench;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.engine.SolveEnqueuer;
import com.captchajobs.worker.WorkerApplication;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The app node: this JVM, with the worker's Spring context but no JobRunr background job server, so
 * it only stores solves and creates their first jobs (what an application embedding CaptchaJobs
 * does). It is started before the workers so that it runs the migrations alone.
 */
public final class AppNode implements AutoCloseable {

  private final ConfigurableApplicationContext context;
  private final SolveEnqueuer enqueuer;

  private AppNode(ConfigurableApplicationContext context) {
    this.context = context;
    this.enqueuer = context.getBean(CaptchaJobs.class).part(SolveEnqueuer.class).orElseThrow();
  }

  public static AppNode start(String jdbcUrl, String baseUrl, int threads) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("spring.datasource.url", jdbcUrl);
    props.put("spring.datasource.hikari.maximum-pool-size", "8");
    props.put("captchaai.base-url", baseUrl);
    props.put("captchaai.threads", String.valueOf(threads));
    props.put("captchajobs.worker.enabled", "false");
    props.put("captchajobs.dashboard.enabled", "false");
    props.put("spring.main.banner-mode", "off");
    props.put("logging.level.root", "WARN");
    props.put("logging.level.org.jobrunr.jobs.filters.JobCreationFilters", "ERROR");
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(WorkerApplication.class)
            .web(WebApplicationType.NONE)
            .properties(props)
            .run();
    return new AppNode(context);
  }

  /** One solve to store: its business key, type and whether the provider must reject it. */
  public record Request(String businessKey, CaptchaType type, boolean permanent) {}

  /** Stores one request; true when it was created. */
  public boolean enqueue(Request r) {
    return enqueuer
        .enqueue(
            r.businessKey(),
            r.type(),
            TypeMix.params(r.type(), r.businessKey(), r.permanent()),
            0,
            null)
        .created();
  }

  /** Stores every request with a few threads; returns how many were created. */
  public int enqueueAll(List<Request> requests, int parallelism) {
    ExecutorService pool = Executors.newFixedThreadPool(parallelism);
    AtomicInteger created = new AtomicInteger();
    try {
      List<Future<?>> futures =
          requests.stream()
              .map(
                  r ->
                      pool.submit(
                          () -> {
                            if (enqueuer
                                .enqueue(
                                    r.businessKey(),
                                    r.type(),
                                    TypeMix.params(r.type(), r.businessKey(), r.permanent()),
                                    0,
                                    null)
                                .created()) {
                              created.incrementAndGet();
                            }
                          }))
              .<Future<?>>map(f -> f)
              .toList();
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while enqueuing", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("enqueue failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdown();
    }
    return created.get();
  }

  @Override
  public void close() {
    context.close();
  }
}

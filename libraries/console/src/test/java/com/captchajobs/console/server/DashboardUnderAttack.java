package com.captchajobs.console.server;

import java.util.concurrent.CountDownLatch;
import org.jobrunr.storage.InMemoryStorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;

/**
 * A dashboard alone in a JVM, for {@link DashboardOutOfMemoryTest} to attack: prints {@code
 * port=<n>} once listening and serves until killed.
 */
public final class DashboardUnderAttack {

  static final String USER = "ops";
  static final String PASSWORD = "dashboard-password-under-attack";

  private DashboardUnderAttack() {}

  public static void main(String[] args) throws InterruptedException {
    JsonMapper json = new JacksonJsonMapper();
    InMemoryStorageProvider storage = new InMemoryStorageProvider();
    storage.setJobMapper(new org.jobrunr.jobs.mappers.JobMapper(json));
    DashboardServer dashboard = DashboardServer.start(storage, json, null, 0, USER, PASSWORD);
    System.out.println("port=" + dashboard.address().getPort());
    System.out.flush();
    new CountDownLatch(1).await();
  }
}

package com.captchajobs.core.internal.notify;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Where the listening connection comes from. A pooled connection held for the node's life would
 * shrink the pool and be recycled under us, so with Hikari we open our own from the same URL and
 * credentials; any other DataSource lends one connection for good.
 */
public final class DedicatedConnections {

  private DedicatedConnections() {}

  /**
   * Connections of their own for a long-lived purpose, named {@code applicationName} in {@code
   * pg_stat_activity}.
   */
  public static SolveNotifications.ConnectionFactory of(
      DataSource dataSource, String applicationName) {
    HikariDataSource hikari = unwrapHikari(dataSource);
    if (hikari != null && hikari.getJdbcUrl() != null) {
      String url = hikari.getJdbcUrl();
      Properties props = new Properties();
      props.putAll(hikari.getDataSourceProperties());
      if (hikari.getUsername() != null) {
        props.setProperty("user", hikari.getUsername());
      }
      if (hikari.getPassword() != null) {
        props.setProperty("password", hikari.getPassword());
      }
      props.setProperty("ApplicationName", applicationName);
      props.setProperty("tcpKeepAlive", "true");
      return () -> DriverManager.getConnection(url, props);
    }
    return dataSource::getConnection;
  }

  private static HikariDataSource unwrapHikari(DataSource dataSource) {
    try {
      if (dataSource instanceof HikariDataSource h) {
        return h;
      }
      return dataSource.isWrapperFor(HikariDataSource.class)
          ? dataSource.unwrap(HikariDataSource.class)
          : null;
    } catch (SQLException e) {
      return null;
    }
  }
}

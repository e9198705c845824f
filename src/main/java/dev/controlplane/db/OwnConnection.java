package dev.controlplane.db;

import dev.controlplane.config.ControlPlaneConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A plain JDBC connection to the node's database, outside the application server's pools: for the
 * threads that keep one connection of their own (the write pipeline, the LISTEN connection).
 */
public final class OwnConnection {

  private OwnConnection() {}

  /**
   * Opens one with the node's credentials, a 5 s connect timeout, TCP keep-alive, the given socket
   * timeout and application name, and any further driver {@code settings}.
   */
  public static Connection open(
      ControlPlaneConfig config,
      String applicationName,
      int socketTimeoutSeconds,
      Properties settings)
      throws SQLException {
    Properties props = new Properties();
    props.putAll(settings);
    props.setProperty("user", config.dbUser());
    props.setProperty("password", config.dbPassword());
    props.setProperty("connectTimeout", "5");
    props.setProperty("socketTimeout", Integer.toString(socketTimeoutSeconds));
    props.setProperty("tcpKeepAlive", "true");
    props.setProperty("ApplicationName", applicationName);
    Connection c = new org.postgresql.Driver().connect(config.dbUrl(), props);
    if (c == null) {
      throw new SQLException("not a PostgreSQL URL: " + config.dbUrl());
    }
    return c;
  }
}

package dev.controlplane.metadata.watch;

import dev.controlplane.cache.TenantChanges;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.CommitSignal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Holds one dedicated PostgreSQL connection that LISTENs on the change-log channel, so commits made
 * by another node (or by a DBA's tooling) wake this node's watchers within milliseconds. The
 * notification carries no data; it only says "read the table". After a lost connection it
 * reconnects with backoff and signals once, because notifications sent meanwhile are lost.
 *
 * <p>The same connection LISTENs on {@link TenantChanges#CHANNEL}, whose notifications name the
 * tenant whose RBAC rows, issuers or signing keys changed; a reconnect drops every cached tenant.
 */
public final class ChangeNotificationListener {

  private static final Logger LOG = Logger.getLogger(ChangeNotificationListener.class.getName());

  private static final long PROBE_EVERY_IDLE_SECONDS = 5;

  private final ControlPlaneConfig config;
  private final CommitSignal signal;
  private final TenantChanges tenants;
  private volatile boolean running;
  private volatile Connection connection;
  private Thread thread;

  public ChangeNotificationListener(
      ControlPlaneConfig config, CommitSignal signal, TenantChanges tenants) {
    this.config = config;
    this.signal = signal;
    this.tenants = tenants;
  }

  public void start(ThreadFactory threads) {
    running = true;
    thread = threads.newThread(this::run);
    thread.setName("change-listener");
    thread.start();
  }

  public void stop() {
    running = false;
    closeQuietly();
  }

  private void run() {
    long backoff = 100;
    while (running) {
      try (Connection c = connect()) {
        connection = c;
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN " + ChangeLog.CHANNEL);
          s.execute("LISTEN " + TenantChanges.CHANNEL);
        }
        backoff = 100;
        tenants.changedAll();
        signal.committed();
        PGConnection pg = c.unwrap(PGConnection.class);
        for (long idle = 0; running; idle++) {
          PGNotification[] notes = pg.getNotifications(1000);
          if (notes != null && notes.length > 0) {
            dispatch(notes);
            idle = 0;
          } else if (idle % PROBE_EVERY_IDLE_SECONDS == 0) {
            probe(c);
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (running) {
          LOG.log(
              Level.WARNING,
              "change notifications interrupted; reconnecting in "
                  + backoff
                  + " ms: "
                  + e.getMessage());
          sleep(backoff);
          // At most a second: during a database failover the next primary answers within seconds.
          backoff = Math.min(1000, backoff * 2);
        }
      }
    }
  }

  private void dispatch(PGNotification[] notes) {
    boolean commits = false;
    boolean unnamed = false;
    long upTo = -1;
    for (PGNotification note : notes) {
      if (TenantChanges.CHANNEL.equals(note.getName())) {
        tenants.changed(note.getParameter());
      } else {
        long version = versionIn(note.getParameter());
        commits = true;
        unnamed |= version < 0;
        upTo = Math.max(upTo, version);
      }
    }
    if (commits && !unnamed) {
      signal.committedUpTo(upTo);
    } else if (commits) {
      signal.committed();
    }
  }

  /**
   * The version a commit notification names, or -1 when it names none (a node of an earlier release
   * sent an empty payload).
   */
  static long versionIn(String payload) {
    try {
      return payload == null || payload.isEmpty() ? -1 : Long.parseLong(payload);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * A quiet LISTEN connection only notices a server that closed it. One whose server vanished
   * without a word (a host lost, a network cut) is found by a query that gets no answer within the
   * socket timeout, and then replaced.
   */
  private static void probe(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SELECT 1");
    }
  }

  private Connection connect() throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", config.dbUser());
    props.setProperty("password", config.dbPassword());
    props.setProperty("connectTimeout", "5");
    props.setProperty("tcpKeepAlive", "true");
    props.setProperty("socketTimeout", "10");
    props.setProperty("ApplicationName", "controlplane-listener-" + config.nodeId());
    Connection c = new org.postgresql.Driver().connect(config.dbUrl(), props);
    if (c == null) {
      throw new SQLException("not a PostgreSQL URL: " + config.dbUrl());
    }
    return c;
  }

  private void closeQuietly() {
    Connection c = connection;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // Closing only to unblock the listening thread.
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

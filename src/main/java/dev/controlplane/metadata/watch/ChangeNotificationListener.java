package dev.controlplane.metadata.watch;

import dev.controlplane.cache.TenantChanges;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.db.OwnConnection;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.CommitSignal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Holds one dedicated PostgreSQL connection that LISTENs on the change-log channel, so commits made
 * by another node wake this node's watchers within milliseconds. The notification carries no data
 * but the version; it only says "read the table". After a lost connection it reconnects with
 * backoff and signals once, because notifications sent meanwhile are lost.
 *
 * <p>The leader does not listen to the change-log channel: every commit there is its own, and its
 * write pipeline hands each batch to the watch hub directly, so the notifications only cost both it
 * and PostgreSQL work per batch (about 5 % of a busy leader's CPU). The connection UNLISTENs when
 * the node starts leading and LISTENs again, then signals once, when it stops; the hub's own read
 * of the log every second covers the moments in between.
 *
 * <p>The same connection always LISTENs on {@link TenantChanges#CHANNEL}, whose notifications name
 * the tenant whose RBAC rows, issuers or signing keys changed; a reconnect drops every cached
 * tenant.
 */
public final class ChangeNotificationListener {

  /** Opens the dedicated connection. */
  @FunctionalInterface
  public interface Connector {
    Connection open() throws SQLException;
  }

  private static final Logger LOG = Logger.getLogger(ChangeNotificationListener.class.getName());

  private static final long PROBE_AFTER_IDLE_NANOS = 5_000_000_000L;

  /** How soon a change of leadership is noticed; also the longest wait for notifications. */
  private static final int POLL_MILLIS = 250;

  private final Connector connector;
  private final CommitSignal signal;
  private final TenantChanges tenants;
  private final BooleanSupplier leads;
  private volatile boolean running;
  private volatile Connection connection;
  private volatile boolean listeningToCommits;
  private Thread thread;

  /**
   * @param leads whether this node leads now; while it does, commit notifications are not received
   */
  public ChangeNotificationListener(
      Connector connector, CommitSignal signal, TenantChanges tenants, BooleanSupplier leads) {
    this.connector = connector;
    this.signal = signal;
    this.tenants = tenants;
    this.leads = leads;
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

  /** Whether the connection currently receives commit notifications (false while leading). */
  public boolean listeningToCommits() {
    return listeningToCommits;
  }

  private void run() {
    long backoff = 100;
    while (running) {
      try (Connection c = connector.open()) {
        connection = c;
        listeningToCommits = false;
        execute(c, "LISTEN " + TenantChanges.CHANNEL);
        followCommits(c);
        backoff = 100;
        tenants.changedAll();
        signal.committed();
        PGConnection pg = c.unwrap(PGConnection.class);
        long lastHeard = System.nanoTime();
        while (running) {
          if (followCommits(c)) {
            // Commits may have happened while not listening: read the log once.
            signal.committed();
          }
          PGNotification[] notes = pg.getNotifications(POLL_MILLIS);
          if (notes != null && notes.length > 0) {
            dispatch(notes);
            lastHeard = System.nanoTime();
          } else if (System.nanoTime() - lastHeard > PROBE_AFTER_IDLE_NANOS) {
            probe(c);
            lastHeard = System.nanoTime();
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

  /**
   * LISTENs to commits when this node does not lead and UNLISTENs when it does; true when it began
   * listening just now.
   */
  private boolean followCommits(Connection c) throws SQLException {
    boolean wanted = !leads.getAsBoolean();
    if (wanted == listeningToCommits) {
      return false;
    }
    execute(c, (wanted ? "LISTEN " : "UNLISTEN ") + ChangeLog.CHANNEL);
    listeningToCommits = wanted;
    return wanted;
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
    execute(c, "SELECT 1");
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** The dedicated connection to the database the node's settings name. */
  public static Connector connector(ControlPlaneConfig config) {
    return () ->
        OwnConnection.open(
            config, "controlplane-listener-" + config.nodeId(), 10, new Properties());
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

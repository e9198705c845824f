package dev.controlplane.error;

import java.sql.SQLException;
import java.util.Optional;

/**
 * Classifies exceptions that escape the domain. A {@link ControlPlaneException} anywhere in the
 * cause chain (transaction interceptors wrap them) is the answer; a lost database connection is
 * UNAVAILABLE; anything else is a server fault and is reported without details.
 */
public final class Failures {

  private Failures() {}

  public static Optional<ControlPlaneException> classify(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ControlPlaneException known) {
        return Optional.of(known);
      }
    }
    if (isDatabaseUnavailable(failure)) {
      return Optional.of(
          ControlPlaneException.unavailable("the database is unavailable; retry shortly", failure));
    }
    if (isDataException(failure)) {
      return Optional.of(refusedValue());
    }
    return Optional.empty();
  }

  /**
   * A value PostgreSQL refused as data (SQLSTATE class 22: a NUL in text, a number or a date beyond
   * its range). Requests are checked before they reach it, so this is the backstop of a check that
   * is missing: the client's value, not the server, and its text (the database's) stays in the log.
   */
  public static boolean isDataException(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql
          && sql.getSQLState() != null
          && sql.getSQLState().startsWith("22")) {
        return true;
      }
    }
    return false;
  }

  /** The answer to a {@link #isDataException data exception}. */
  public static ControlPlaneException refusedValue() {
    return new ControlPlaneException(
        ErrorCode.VALIDATION_FAILED,
        "a value of the request cannot be stored or compared: the database refused it");
  }

  /** The database is down, unreachable or refusing connections: retry, not a server fault. */
  public static boolean isDatabaseUnavailable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        String state = sql.getSQLState();
        // 08: connection lost or refused (also "no primary among the hosts"); 57P: the server is
        // shutting down or restarting; 53: out of connections, memory or disk; 25006: a read-only
        // transaction, i.e. the connection reached a standby (a failover is in progress). Refused
        // at connection: 28 (a password rotated), 3D000 (the database is gone), 55000 (it does
        // not accept connections now).
        if (state != null
            && (state.startsWith("08")
                || state.startsWith("57P")
                || state.startsWith("53")
                || state.startsWith("28")
                || state.equals("3D000")
                || state.equals("55000")
                || state.equals("25006"))) {
          return true;
        }
      }
      // Hibernate's words for any failure to get a connection, whatever the database answered.
      if (t.getMessage() != null
          && t.getMessage().startsWith("Unable to acquire JDBC Connection")) {
        return true;
      }
      String name = t.getClass().getName();
      if (name.equals("jakarta.resource.ResourceException")
          || name.endsWith("JDBCConnectionException")
          || name.endsWith("ConnectionWaitTimeoutException")
          || name.endsWith("CannotCreateTransactionException")) {
        return true;
      }
    }
    return false;
  }
}

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
    return Optional.empty();
  }

  private static boolean isDatabaseUnavailable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        String state = sql.getSQLState();
        // 08: connection lost or refused (also "no primary among the hosts"); 57P: the server is
        // shutting down or restarting; 53300: too many connections; 25006: a read-only transaction,
        // i.e. the connection reached a standby (a failover is in progress).
        if (state != null
            && (state.startsWith("08")
                || state.startsWith("57P")
                || state.equals("53300")
                || state.equals("25006"))) {
          return true;
        }
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

package dev.controlplane.write;

import dev.controlplane.error.ControlPlaneException;
import java.sql.SQLException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * What a batch's writers are told when the database failed it other than by refusing a value or a
 * row: whether the commit may have happened (the connection was lost on the way), certainly did not
 * (the statement was canceled), or the database was simply unavailable.
 */
final class CommitOutcome {

  /** PostgreSQL's SQLSTATE for a statement canceled on request (query_canceled). */
  private static final String CANCELED = "57014";

  private CommitOutcome() {}

  /** The error each writer of a batch that failed with {@code e} gets. */
  static ControlPlaneException errorFor(SQLException e, boolean connectionClosed) {
    if (connectionLost(e, connectionClosed)) {
      return outcomeUnknown(e);
    }
    return CANCELED.equals(e.getSQLState()) ? canceled(e) : unavailable(e);
  }

  /**
   * Whether the connection broke rather than the database refusing: the statements and the {@code
   * COMMIT} travel in one round trip, so the commit may have happened before the answer was lost. A
   * lost or refused connection says so by its SQLSTATE; a server process that ended itself (FATAL,
   * or PANIC such as a WAL flush that failed) may send its own SQLSTATE first, which only its
   * severity, or the driver closing the connection, tells apart from a refusal.
   */
  static boolean connectionLost(SQLException e, boolean connectionClosed) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    if (connectionClosed || state.startsWith("08") || state.startsWith("57P")) {
      return true;
    }
    ServerErrorMessage server =
        e instanceof PSQLException psql ? psql.getServerErrorMessage() : null;
    String severity = server == null ? null : server.getSeverity();
    return "FATAL".equals(severity) || "PANIC".equals(severity);
  }

  private static ControlPlaneException outcomeUnknown(Exception e) {
    return ControlPlaneException.unavailable(
        "the connection to the database was lost during the commit, so the write may or may not"
            + " be stored; read it before retrying",
        e);
  }

  /**
   * PostgreSQL cancels a statement only before its transaction's commit begins, so nothing of the
   * batch is stored: the node canceled it as it stopped, an operator did, or a statement timeout
   * set in the database (this connection sets none) ran out.
   */
  private static ControlPlaneException canceled(Exception e) {
    return ControlPlaneException.unavailable(
        "the database canceled the write (the node is stopping, an operator canceled it, or a"
            + " statement timeout ran out); nothing was written; retry",
        e);
  }

  static ControlPlaneException unavailable(Exception e) {
    return ControlPlaneException.unavailable("the database is unavailable; retry", e);
  }
}

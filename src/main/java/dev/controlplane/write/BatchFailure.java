package dev.controlplane.write;

import java.sql.SQLException;

/** The database failed the batch transaction: every operation of the batch fails with it. */
final class BatchFailure extends RuntimeException {

  BatchFailure(SQLException cause) {
    super(cause.getMessage(), cause);
  }

  SQLException sqlCause() {
    return (SQLException) getCause();
  }
}

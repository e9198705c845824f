package dev.controlplane.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/** Which failures of a batch's round trip (statements and COMMIT) leave its outcome unknown. */
class CommitOutcomeTest {

  private static PSQLException fromServer(String severity, String sqlState) {
    return new PSQLException(
        new ServerErrorMessage("S" + severity + "\0V" + severity + "\0C" + sqlState + "\0Mx\0"));
  }

  @Test
  void aLostOrRefusedConnectionOrAServerProcessThatEndedLeavesItUnknown() {
    assertThat(CommitOutcome.connectionLost(new SQLException("gone", "08006"), false)).isTrue();
    assertThat(CommitOutcome.connectionLost(new SQLException("shutdown", "57P01"), false)).isTrue();
    // A WAL flush that failed at COMMIT: the backend PANICs with its own SQLSTATE.
    assertThat(CommitOutcome.connectionLost(fromServer("PANIC", "58030"), false)).isTrue();
    assertThat(CommitOutcome.connectionLost(fromServer("FATAL", "XX000"), false)).isTrue();
    assertThat(CommitOutcome.connectionLost(new SQLException("odd", "XX000"), true))
        .as("the driver closed the connection")
        .isTrue();
  }

  @Test
  void anErrorTheServerAnsweredOnAnOpenConnectionIsNotUnknown() {
    assertThat(CommitOutcome.connectionLost(fromServer("ERROR", "XX000"), false)).isFalse();
    assertThat(CommitOutcome.connectionLost(fromServer("ERROR", "57014"), false)).isFalse();
    assertThat(CommitOutcome.connectionLost(new SQLException("no state"), false)).isFalse();
  }

  @Test
  void eachFailureTellsTheWritersWhetherTheirWriteMayBeStored() {
    assertThat(CommitOutcome.errorFor(new SQLException("gone", "08006"), false).getMessage())
        .contains("may or may not be stored");
    assertThat(CommitOutcome.errorFor(fromServer("ERROR", "57014"), false).getMessage())
        .contains("canceled")
        .contains("nothing was written");
    assertThat(CommitOutcome.errorFor(fromServer("ERROR", "53300"), false).getMessage())
        .contains("the database is unavailable");
    assertThat(CommitOutcome.errorFor(fromServer("ERROR", "57014"), true).getMessage())
        .as("canceled, but the connection closed: the commit may have happened")
        .contains("may or may not be stored");
  }
}

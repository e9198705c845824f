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
    assertThat(BatchRunner.connectionLost(new SQLException("gone", "08006"), false)).isTrue();
    assertThat(BatchRunner.connectionLost(new SQLException("shutdown", "57P01"), false)).isTrue();
    // A WAL flush that failed at COMMIT: the backend PANICs with its own SQLSTATE.
    assertThat(BatchRunner.connectionLost(fromServer("PANIC", "58030"), false)).isTrue();
    assertThat(BatchRunner.connectionLost(fromServer("FATAL", "XX000"), false)).isTrue();
    assertThat(BatchRunner.connectionLost(new SQLException("odd", "XX000"), true))
        .as("the driver closed the connection")
        .isTrue();
  }

  @Test
  void anErrorTheServerAnsweredOnAnOpenConnectionIsNotUnknown() {
    assertThat(BatchRunner.connectionLost(fromServer("ERROR", "XX000"), false)).isFalse();
    assertThat(BatchRunner.connectionLost(fromServer("ERROR", "57014"), false)).isFalse();
    assertThat(BatchRunner.connectionLost(new SQLException("no state"), false)).isFalse();
  }
}

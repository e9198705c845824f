package dev.controlplane.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * What counts as the database being unavailable (UNAVAILABLE, 503: retry) rather than a server
 * fault (INTERNAL, 500). A database that refused connections for a reason other than the network
 * (it no longer accepts them, a rotated password, a dropped database) was reported as INTERNAL, and
 * brokers do not retry that.
 */
class FailuresTest {

  @Test
  void aConnectionRefusedByTheDatabaseForAnyReasonIsUnavailable() {
    for (String state :
        new String[] {"08006", "57P01", "53300", "53100", "28P01", "3D000", "55000"}) {
      assertThat(Failures.classify(new RuntimeException(new SQLException("refused", state))))
          .as(state)
          .hasValueSatisfying(e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE));
    }
  }

  @Test
  void hibernatesFailureToAcquireAConnectionIsUnavailableWhateverTheState() {
    Throwable failure =
        new RuntimeException(
            "Unable to acquire JDBC Connection [FATAL: something new] [n/a]",
            new SQLException("FATAL: something new", "XX999"));
    assertThat(Failures.classify(failure))
        .hasValueSatisfying(e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE));
  }

  @Test
  void aValueTheDatabaseRefusesIsTheClientsAndOtherFailuresAreTheServers() {
    assertThat(Failures.classify(new SQLException("invalid byte sequence", "22021")))
        .hasValueSatisfying(e -> assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED));
    assertThat(Failures.classify(new SQLException("syntax error", "42601"))).isEmpty();
    assertThat(Failures.classify(new IllegalStateException("bug"))).isEmpty();
  }
}

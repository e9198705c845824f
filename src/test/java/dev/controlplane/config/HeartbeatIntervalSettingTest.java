package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A heartbeat interval failure detection cannot keep (0 turned it off: every check restarted the
 * grace period) or brokers cannot be sent (over 24 days overflows its milliseconds) is refused,
 * naming the setting.
 */
class HeartbeatIntervalSettingTest {

  private static ControlPlaneConfig interval(String value) {
    ControlPlaneConfig config = new ControlPlaneConfig();
    config.heartbeatInterval = value;
    return config;
  }

  @Test
  void anIntervalFrom100msTo1hIsKept() {
    assertThat(interval("100ms").heartbeatInterval()).isEqualTo(Duration.ofMillis(100));
    assertThat(interval("5s").heartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(interval("1h").heartbeatInterval()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void zeroTooShortAndTooLongAreRefusedNamingTheSetting() {
    for (String value : new String[] {"0s", "99ms", "61m", "30d"}) {
      assertThatThrownBy(() -> interval(value).heartbeatInterval())
          .as(value)
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("SERVICE_CONTROLPLANE_HEARTBEAT_INTERVAL")
          .hasMessageContaining("between 100ms and 1h");
    }
  }
}

package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The settings that bound what clients hold on a node: each refusal names its setting. */
class ConnectionBoundSettingsTest {

  private static ControlPlaneConfig config(String time, String timeout, String queueLimit) {
    ControlPlaneConfig config = new ControlPlaneConfig();
    config.grpcKeepaliveTime = time;
    config.grpcKeepaliveTimeout = timeout;
    config.writeQueueLimit = queueLimit;
    config.grpcMaxCallsPerConnection = "1000";
    config.grpcQueueLimit = "10000";
    return config;
  }

  @Test
  void theDefaultsParse() {
    ControlPlaneConfig config = config("30s", "10s", "10000");
    assertThat(config.grpcKeepaliveTime()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.grpcKeepaliveTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.writeQueueLimit()).isEqualTo(10_000);
    assertThat(config.grpcMaxCallsPerConnection()).isEqualTo(1000);
    assertThat(config.grpcQueueLimit()).isEqualTo(10_000);
  }

  @Test
  void aConnectionWithoutRoomForACallIsRefused() {
    ControlPlaneConfig config = config("30s", "10s", "1");
    config.grpcMaxCallsPerConnection = "0";
    assertThatThrownBy(config::grpcMaxCallsPerConnection)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_GRPC_MAX_CALLS_PER_CONNECTION = '0'")
        .hasMessageEndingWith("is not between 1 and 1000000");
  }

  @Test
  void aKeepaliveTimeBelowGrpcsFloorIsRefusedRatherThanSilentlyRaised() {
    assertThatThrownBy(() -> config("5s", "10s", "1").grpcKeepaliveTime())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_GRPC_KEEPALIVE_TIME = '5s'")
        .hasMessageContaining("less than 10s");
  }

  @Test
  void aKeepaliveTimeoutOfZeroIsRefused() {
    assertThatThrownBy(() -> config("30s", "0s", "1").grpcKeepaliveTimeout())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_GRPC_KEEPALIVE_TIMEOUT = '0s'")
        .hasMessageEndingWith("is not positive");
  }

  @Test
  void aWriteQueueWithoutRoomIsRefused() {
    assertThatThrownBy(() -> config("30s", "10s", "0").writeQueueLimit())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_WRITE_QUEUE_LIMIT = '0'")
        .hasMessageEndingWith("is not between 1 and 1000000");
  }

  @Test
  void anRpcQueueWithoutRoomIsRefused() {
    ControlPlaneConfig config = config("30s", "10s", "1");
    config.grpcQueueLimit = "0";
    assertThatThrownBy(config::grpcQueueLimit)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_GRPC_QUEUE_LIMIT = '0'")
        .hasMessageEndingWith("is not between 1 and 1000000");
  }
}

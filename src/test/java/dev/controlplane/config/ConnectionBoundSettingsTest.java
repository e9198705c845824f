package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The settings that bound what clients hold on a node: each refusal names its setting. */
class ConnectionBoundSettingsTest {

  private static ControlPlaneConfig config(String time, String timeout, String queueLimit) {
    ControlPlaneConfig config = new ControlPlaneConfig();
    config.grpcKeepaliveTime = time;
    config.grpcKeepaliveTimeout = timeout;
    config.writeQueueLimit = queueLimit;
    config.grpcMaxCallsPerConnection = "1000";
    config.grpcQueueLimit = "10000";
    config.grpcMaxConnections = "10000";
    config.grpcMaxConnectionsPerClient = "1000";
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
    assertThat(config.grpcMaxConnections()).isEqualTo(10_000);
    assertThat(config.grpcMaxConnectionsPerClient()).isEqualTo(1000);
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

  /** Each count that bounds what clients hold, set to 0: no room at all. */
  static Stream<Arguments> bounds() {
    return Stream.of(
        bound(
            "SERVICE_CONTROLPLANE_GRPC_MAX_CALLS_PER_CONNECTION",
            c -> c.grpcMaxCallsPerConnection = "0",
            ControlPlaneConfig::grpcMaxCallsPerConnection),
        bound(
            "SERVICE_CONTROLPLANE_WRITE_QUEUE_LIMIT",
            c -> c.writeQueueLimit = "0",
            ControlPlaneConfig::writeQueueLimit),
        bound(
            "SERVICE_CONTROLPLANE_GRPC_QUEUE_LIMIT",
            c -> c.grpcQueueLimit = "0",
            ControlPlaneConfig::grpcQueueLimit),
        bound(
            "SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS",
            c -> c.grpcMaxConnections = "0",
            ControlPlaneConfig::grpcMaxConnections),
        bound(
            "SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS_PER_CLIENT",
            c -> c.grpcMaxConnectionsPerClient = "0",
            ControlPlaneConfig::grpcMaxConnectionsPerClient));
  }

  private static Arguments bound(
      String variable, Consumer<ControlPlaneConfig> zero, ToIntFunction<ControlPlaneConfig> read) {
    return Arguments.of(variable, zero, read);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bounds")
  void aBoundWithoutRoomIsRefusedNamingItsVariable(
      String variable, Consumer<ControlPlaneConfig> zero, ToIntFunction<ControlPlaneConfig> read) {
    ControlPlaneConfig config = config("30s", "10s", "10000");
    zero.accept(config);
    assertThatThrownBy(() -> read.applyAsInt(config))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith(variable + " = '0'")
        .hasMessageEndingWith("is not between 1 and 1000000");
  }
}

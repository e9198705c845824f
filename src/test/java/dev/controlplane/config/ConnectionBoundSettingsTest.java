package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The settings that bound what clients hold on a node: each refusal names its setting. */
class ConnectionBoundSettingsTest {

  private static GrpcListenerConfig grpc(String time, String timeout) {
    GrpcListenerConfig config = new GrpcListenerConfig();
    config.keepaliveTime = time;
    config.keepaliveTimeout = timeout;
    config.maxCallsPerConnection = "1000";
    config.queueLimit = "10000";
    config.maxConnections = "10000";
    config.maxConnectionsPerClient = "1000";
    return config;
  }

  private static ControlPlaneConfig node(String writeQueueLimit) {
    ControlPlaneConfig config = new ControlPlaneConfig();
    config.writeQueueLimit = writeQueueLimit;
    return config;
  }

  @Test
  void theDefaultsParse() {
    GrpcListenerConfig config = grpc("30s", "10s");
    assertThat(config.keepaliveTime()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.keepaliveTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(node("10000").writeQueueLimit()).isEqualTo(10_000);
    assertThat(config.maxCallsPerConnection()).isEqualTo(1000);
    assertThat(config.queueLimit()).isEqualTo(10_000);
    assertThat(config.maxConnections()).isEqualTo(10_000);
    assertThat(config.maxConnectionsPerClient()).isEqualTo(1000);
  }

  @Test
  void aKeepaliveTimeBelowGrpcsFloorIsRefusedRatherThanSilentlyRaised() {
    assertThatThrownBy(() -> grpc("5s", "10s").keepaliveTime())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_GRPC_KEEPALIVE_TIME = '5s'")
        .hasMessageContaining("less than 10s");
  }

  @Test
  void aKeepaliveTimeoutOfZeroIsRefused() {
    assertThatThrownBy(() -> grpc("30s", "0s").keepaliveTimeout())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_GRPC_KEEPALIVE_TIMEOUT = '0s'")
        .hasMessageEndingWith("is not positive");
  }

  /** Each count that bounds what clients hold, set to 0: no room at all. */
  static Stream<Arguments> bounds() {
    return Stream.of(
        bound(
            "SERVICE_CONTROLPLANE_GRPC_MAX_CALLS_PER_CONNECTION",
            c -> {
              c.maxCallsPerConnection = "0";
              return c::maxCallsPerConnection;
            }),
        Arguments.of(
            "SERVICE_CONTROLPLANE_WRITE_QUEUE_LIMIT",
            (IntSupplier) () -> node("0").writeQueueLimit()),
        bound(
            "SERVICE_CONTROLPLANE_GRPC_QUEUE_LIMIT",
            c -> {
              c.queueLimit = "0";
              return c::queueLimit;
            }),
        bound(
            "SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS",
            c -> {
              c.maxConnections = "0";
              return c::maxConnections;
            }),
        bound(
            "SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS_PER_CLIENT",
            c -> {
              c.maxConnectionsPerClient = "0";
              return c::maxConnectionsPerClient;
            }));
  }

  /** A gRPC listener bound set to 0 by {@code zero}, which returns how to read it. */
  private static Arguments bound(String variable, Function<GrpcListenerConfig, IntSupplier> zero) {
    return Arguments.of(variable, zero.apply(grpc("30s", "10s")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bounds")
  void aBoundWithoutRoomIsRefusedNamingItsVariable(String variable, IntSupplier read) {
    assertThatThrownBy(read::getAsInt)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith(variable + " = '0'")
        .hasMessageEndingWith("is not between 1 and 1000000");
  }
}

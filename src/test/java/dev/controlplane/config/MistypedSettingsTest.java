package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Settings a review found mistyped values of accepted, or refused with a stack trace rather than a
 * line naming them: each is now an {@link InvalidSettingException} naming the setting, which
 * start-up lists with every other invalid one before anything binds.
 */
class MistypedSettingsTest {

  @Test
  void theSamePortForHttpAndGrpcIsRefusedNamingBoth() {
    ControlPlaneConfig config = new ControlPlaneConfig();
    config.httpPort = "29780";
    config.grpcPort = "29780";
    assertThatThrownBy(config::requirePortsApart)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SERVICE_CONTROLPLANE_GRPC_PORT")
        .hasMessageContaining("SERVICE_CONTROLPLANE_HTTP_PORT");
    config.grpcPort = "29790";
    config.requirePortsApart();
  }

  @Test
  void aBootstrapListenerOnTheHttpOrGrpcPortIsRefused() {
    AuthConfig auth = new AuthConfig();
    auth.bootstrapEnabled = "true";
    auth.bootstrapBindAddr = Optional.of("127.0.0.1:9080");
    assertThatThrownBy(() -> auth.requireBootstrapPortApart(9080, 9090))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SERVICE_BOOTSTRAP_BIND_ADDR")
        .hasMessageContaining("SERVICE_CONTROLPLANE_HTTP_PORT");
    assertThatThrownBy(() -> auth.requireBootstrapPortApart(8080, 9080))
        .hasMessageContaining("SERVICE_CONTROLPLANE_GRPC_PORT");
    auth.requireBootstrapPortApart(8080, 9090);
  }

  /**
   * A bootstrap address that does not parse used to reach the listener, which reported "is not
   * host:port" for a port out of range or an unknown host alike, after the main listeners bound.
   */
  @Test
  void aBootstrapAddressThatDoesNotParseIsRefusedNamingWhatIsWrong() {
    AuthConfig auth = new AuthConfig();
    String[][] cases = {
      {"127.0.0.1", "has no port"},
      {"127.0.0.1:http", "has no numeric port"},
      {"127.0.0.1:70000", "port 70000 is out of range"},
      {":9999", "has no port"},
      {"[]:9999", "has no host"},
    };
    for (String[] c : cases) {
      auth.bootstrapBindAddr = Optional.of(c[0]);
      assertThatThrownBy(auth::bootstrapAddress)
          .as(c[0])
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("SERVICE_BOOTSTRAP_BIND_ADDR")
          .hasMessageContaining("is not host:port: ")
          .hasMessageContaining(c[1]);
    }
    auth.bootstrapBindAddr = Optional.of("[::1]:9999");
    assertThat(auth.bootstrapAddress())
        .hasValueSatisfying(
            a -> {
              assertThat(a.getHostString()).isEqualTo("::1");
              assertThat(a.getPort()).isEqualTo(9999);
            });
  }

  /** An unassignable bind host was reported as a problem of the gRPC port. */
  @Test
  void aBindHostThatIsNotAnAddressOfThisMachineIsRefusedNamingIt() {
    ControlPlaneConfig config = new ControlPlaneConfig();
    config.bindHost = "192.0.2.1";
    assertThatThrownBy(config::requireLocalBindHost)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SERVICE_CONTROLPLANE_BIND_HOST = '192.0.2.1'")
        .hasMessageContaining("is not an address of this machine");
    config.bindHost = "no-such-host.invalid";
    assertThatThrownBy(config::requireLocalBindHost)
        .hasMessageContaining("SERVICE_CONTROLPLANE_BIND_HOST")
        .hasMessageContaining("does not resolve");
    for (String fine : new String[] {"127.0.0.1", "0.0.0.0", "::", "[::1]", "localhost"}) {
      config.bindHost = fine;
      config.requireLocalBindHost();
    }
  }

  /**
   * A list cut to the node's own entry made it a Raft group of one, its own majority: it led alone
   * and, once the real leader stopped, took the fencing term from the real cluster.
   */
  @Test
  void aMemberListOfOneNodeIsRefused() {
    ClusterConfig config = new ClusterConfig();
    config.node = new ControlPlaneConfig();
    config.node.nodeId = "cp2";
    config.members = Optional.of("cp2=127.0.0.1:7801");
    assertThatThrownBy(config::requireUsableMemberList)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS = 'cp2=127.0.0.1:7801'")
        .hasMessageContaining("names a single node");
    config.members = Optional.of("cp1=127.0.0.1:7800,cp2=127.0.0.1:7801,cp3=127.0.0.1:7802");
    config.requireUsableMemberList();
    config.members = Optional.empty();
    config.requireUsableMemberList();
  }

  @Test
  void aMemberListThatDoesNotParseIsASettingProblemNotAStackTrace() {
    ClusterConfig config = new ClusterConfig();
    config.members = Optional.of("cp1=127.0.0.1,cp2=127.0.0.1:7801");
    assertThatThrownBy(config::members)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS")
        .hasMessageContaining("'127.0.0.1' has no port");
  }

  @Test
  void aTlsReloadIntervalOfZeroIsRefused() {
    TlsConfig tls = new TlsConfig();
    tls.reloadInterval = "0s";
    assertThatThrownBy(tls::reloadInterval)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SERVICE_CONTROLPLANE_TLS_RELOAD_INTERVAL")
        .hasMessageContaining("not positive");
  }

  @Test
  void aMistypedLowSSwitchIsRefusedRatherThanReadAsFalse() {
    AuthConfig auth = new AuthConfig();
    auth.requireLowS = "ture";
    assertThatThrownBy(auth::requireLowS)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SERVICE_CONTROLPLANE_OIDC_REQUIRE_LOW_S");
    auth.requireLowS = "true";
    assertThat(auth.requireLowS()).isTrue();
  }

  /** Liberty took "abc" as its own 50 (not the documented 20) and 0 as no limit, with a warning. */
  @Test
  void aPoolSizeThatIsNotAPositiveIntegerIsRefused() {
    ControlPlaneConfig config = new ControlPlaneConfig();
    for (String value : new String[] {"abc", "-5", "0", "20000"}) {
      config.dbPoolSize = value;
      assertThatThrownBy(config::dbPoolSize)
          .as(value)
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("SERVICE_CONTROLPLANE_DB_POOL_SIZE");
    }
    config.dbPoolSize = "20";
    assertThat(config.dbPoolSize()).isEqualTo(20);
  }
}

package dev.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.cli.CliException;
import org.junit.jupiter.api.Test;

class GrpcAddressTest {

  @Test
  void aLeaderNamedByANodeTakesThatNodesScheme() {
    assertThat(GrpcAddress.configured("https://cp1:9090").leader("cp2:9090"))
        .hasValue(new GrpcAddress("cp2", 9090, true));
    assertThat(GrpcAddress.configured("cp1:9090").leader("cp2:9090"))
        .hasValue(new GrpcAddress("cp2", 9090, false));
  }

  @Test
  void aTrailerThatIsNoHostAndPortNamesNoLeader() {
    GrpcAddress node = GrpcAddress.configured("https://cp1:9090");
    assertThat(node.leader("cp2")).as("a node id").isEmpty();
    assertThat(node.leader("cp2:http")).isEmpty();
    assertThat(node.leader("cp2:0")).isEmpty();
    assertThat(node.leader(":9090")).isEmpty();
    assertThat(node.leader("http://cp2:9090")).as("a scheme it does not decide").isEmpty();
  }

  @Test
  void aConfiguredAddressWithoutAPortIsAConfigurationError() {
    assertThatThrownBy(() -> GrpcAddress.configured("https://cp1"))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("must be host:port")
        .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(3));
  }

  @Test
  void anAddressPrintsAsItIsConfigured() {
    assertThat(GrpcAddress.configured("https://cp1:9090")).hasToString("https://cp1:9090");
    assertThat(GrpcAddress.configured("http://cp1:9090")).hasToString("cp1:9090");
  }
}

package dev.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClusterMembersTest {

  @Test
  void parsesIdsAndAddressesInTheOrderGiven() {
    ClusterMembers members =
        ClusterMembers.parse(" cp1=127.0.0.1:7800, cp2=127.0.0.1:7801,cp3=[::1]:7802 ");
    assertThat(members.ids()).containsExactly("cp1", "cp2", "cp3");
    assertThat(members.address("cp2").getPort()).isEqualTo(7801);
    assertThat(members.address("cp3").getHostString()).isEqualTo("::1");
    assertThat(members.contains("cp4")).isFalse();
  }

  @Test
  void anEmptyListIsASingleNodeCluster() {
    assertThat(ClusterMembers.parse("").isEmpty()).isTrue();
    assertThat(ClusterMembers.parse(" , ").isEmpty()).isTrue();
  }

  @Test
  void refusesMalformedEntriesAndSaysWhich() {
    assertThatThrownBy(() -> ClusterMembers.parse("cp1=127.0.0.1"))
        .hasMessageContaining("has no port");
    assertThatThrownBy(() -> ClusterMembers.parse("cp1=127.0.0.1:x"))
        .hasMessageContaining("no numeric port");
    assertThatThrownBy(() -> ClusterMembers.parse("cp1=h:70000"))
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> ClusterMembers.parse("CP1=h:1")).hasMessageContaining("'CP1=h:1'");
    assertThatThrownBy(() -> ClusterMembers.parse("cp1=h:1,cp1=h:2"))
        .hasMessageContaining("appears twice");
  }
}

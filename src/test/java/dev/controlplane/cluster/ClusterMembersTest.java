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
    assertThatThrownBy(() -> ClusterMembers.parse("cp1=10.0.0.1:7800,cp2=10.0.0.1:7800"))
        .hasMessageContaining("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS")
        .hasMessageContaining("nodes 'cp1' and 'cp2' have the same address 10.0.0.1:7800");
  }

  @Test
  void listsThatDifferOnlyInOrderAndSpacingHaveOneFormAndOneFingerprint() {
    ClusterMembers written =
        ClusterMembers.parse("cp2=10.0.0.2:7800, cp1=10.0.0.1:7800,cp3=[::1]:7800");
    ClusterMembers reordered =
        ClusterMembers.parse("cp3=[::1]:7800,cp1=10.0.0.1:7800,cp2=10.0.0.2:7800");
    assertThat(written.canonical())
        .isEqualTo("cp1=10.0.0.1:7800,cp2=10.0.0.2:7800,cp3=[::1]:7800")
        .isEqualTo(reordered.canonical());
    assertThat(MemberListCheck.fingerprint(written))
        .isEqualTo(MemberListCheck.fingerprint(reordered))
        .hasSize(8);

    ClusterMembers mistyped =
        ClusterMembers.parse("cp1=10.0.0.1:7801,cp2=10.0.0.2:7800,cp3=[::1]:7800");
    ClusterMembers grown =
        ClusterMembers.parse(written.canonical() + ",cp4=10.0.0.4:7800,cp5=10.0.0.5:7800");
    assertThat(MemberListCheck.fingerprint(mistyped))
        .isNotEqualTo(MemberListCheck.fingerprint(written));
    assertThat(MemberListCheck.fingerprint(grown))
        .isNotEqualTo(MemberListCheck.fingerprint(written));
  }
}

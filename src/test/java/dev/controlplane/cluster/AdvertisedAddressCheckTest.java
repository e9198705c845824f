package dev.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.Util;
import org.junit.jupiter.api.Test;

class AdvertisedAddressCheckTest {

  private static Address member(String name, String http, String grpc) {
    return ExtendedUUID.randomUUID(name)
        .put(RAFT.raft_id_key, Util.stringToBytes(name))
        .put(AdvertisedAddressCheck.HTTP_KEY, AdvertisedAddressCheck.entry(http))
        .put(AdvertisedAddressCheck.GRPC_KEY, AdvertisedAddressCheck.entry(grpc));
  }

  @Test
  void membersAdvertisingOneHttpAddressAreGroupedAndTheOthersAreNot() {
    Address cp1 = member("cp1", "http://10.0.0.1:9080", "10.0.0.1:9090");
    // cp3's configuration was copied from cp1's, and only its gRPC address corrected.
    Address cp3 = member("cp3", "http://10.0.0.1:9080", "10.0.0.3:9090");
    Address cp2 = member("cp2", "http://10.0.0.2:9080", "10.0.0.2:9090");
    View view = View.create(cp1, 1, cp1, cp3, cp2);

    assertThat(AdvertisedAddressCheck.sharingOne(view, AdvertisedAddressCheck.HTTP_KEY))
        .containsExactly(java.util.List.of("cp1", "cp3"));
    assertThat(AdvertisedAddressCheck.sharingOne(view, AdvertisedAddressCheck.GRPC_KEY)).isEmpty();
  }

  @Test
  void aMemberWithoutTheEntriesSharesNothing() {
    Address plain = ExtendedUUID.randomUUID("old");
    View view = View.create(plain, 1, plain, member("cp1", "http://a:1", "a:2"));

    assertThat(AdvertisedAddressCheck.sharingOne(view, AdvertisedAddressCheck.HTTP_KEY)).isEmpty();
  }
}

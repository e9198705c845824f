package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.config.NetworkList;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Issuer key URLs cannot reach the service's own networks unless configuration allows them. */
class AddressPolicyTest {

  private static final AddressPolicy DEFAULT = new AddressPolicy(NetworkList.NONE);

  private static boolean refused(AddressPolicy policy, String address) throws Exception {
    return policy.refusal(InetAddress.getByName(address)).isPresent();
  }

  @Test
  void internalRangesAreRefusedByDefault() throws Exception {
    for (String a :
        new String[] {
          "127.0.0.1",
          "127.9.9.9",
          "10.0.0.1",
          "172.16.0.1",
          "172.31.255.255",
          "192.168.1.1",
          "100.64.0.1",
          "100.127.255.254",
          "0.0.0.1",
          "::1",
          "fd00::1",
          "fc12::1",
          "fec0::1",
          "169.254.169.254",
          "fe80::1",
          "0.0.0.0",
          "::",
          "224.0.0.1",
          "::ffff:10.0.0.1",
          "2002:0a00:0001::1",
          "64:ff9b::a00:1"
        }) {
      assertThat(refused(DEFAULT, a)).as(a).isTrue();
    }
  }

  @Test
  void publicAddressesAreFetched() throws Exception {
    for (String a : new String[] {"8.8.8.8", "172.32.0.1", "100.128.0.1", "2001:4860::8888"}) {
      assertThat(refused(DEFAULT, a)).as(a).isFalse();
    }
  }

  @Test
  void allowedNetworksOpenOnlyWhatTheyList() throws Exception {
    AddressPolicy local =
        new AddressPolicy(NetworkList.parse("test", "127.0.0.1/32, 10.20.0.0/16"));
    assertThat(refused(local, "127.0.0.1")).isFalse();
    assertThat(refused(local, "127.0.0.2")).isTrue();
    assertThat(refused(local, "10.20.3.4")).isFalse();
    assertThat(refused(local, "10.21.0.1")).isTrue();
    AddressPolicy metadata = new AddressPolicy(NetworkList.parse("test", "169.254.0.0/16"));
    assertThat(refused(metadata, "169.254.169.254")).as("link-local is never allowed").isTrue();
  }

  @Test
  void hostLiteralsAndLocalhostAreJudgedWithoutALookup() {
    assertThat(DEFAULT.refusalWithoutLookup("localhost")).isPresent();
    assertThat(DEFAULT.refusalWithoutLookup("[::1]")).isPresent();
    assertThat(DEFAULT.refusalWithoutLookup("192.168.0.10")).isPresent();
    assertThat(DEFAULT.refusalWithoutLookup("idp.example.com")).isEmpty();
  }
}

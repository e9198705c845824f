package dev.controlplane.auth;

import dev.controlplane.config.NetworkList;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Which addresses issuer key URLs may reach. An issuer URL is chosen by a tenant administrator, so
 * without limits the service would fetch from its own network on their behalf (a port scanner with
 * the fetch error as its output). Refused always: link-local (cloud metadata endpoints live there),
 * wildcard and multicast addresses. Refused unless listed in {@code
 * SERVICE_CONTROLPLANE_OIDC_ALLOWED_NETWORKS}: loopback, "this network" (0.0.0.0/8), private (RFC
 * 1918), shared/CGNAT (100.64.0.0/10), unique-local IPv6 (fc00::/7) and deprecated site-local IPv6
 * (fec0::/10). IPv4 addresses embedded in IPv6 (mapped, compatible, 6to4, NAT64) are judged as the
 * IPv4 address they reach.
 */
public final class AddressPolicy {

  private static final NetworkList INTERNAL =
      NetworkList.parse(
          "internal networks",
          "0.0.0.0/8,10.0.0.0/8,100.64.0.0/10,127.0.0.0/8,172.16.0.0/12,192.168.0.0/16,"
              + "::1/128,fc00::/7,fec0::/10");

  private final NetworkList allowed;

  public AddressPolicy(NetworkList allowed) {
    this.allowed = allowed;
  }

  /** Why {@code address} must not be fetched, or empty when it may be. */
  public Optional<String> refusal(InetAddress address) {
    InetAddress target = embeddedIpv4(address).orElse(address);
    if (target.isLinkLocalAddress() || target.isAnyLocalAddress() || target.isMulticastAddress()) {
      return Optional.of("a link-local, wildcard or multicast address");
    }
    if (INTERNAL.contains(target) && !allowed.contains(target)) {
      return Optional.of(
          "a loopback, private, shared (CGNAT) or unique-local address"
              + " (SERVICE_CONTROLPLANE_OIDC_ALLOWED_NETWORKS does not list it)");
    }
    return Optional.empty();
  }

  /**
   * The refusal of a URL host when it is an address literal or a loopback name, judged without a
   * DNS lookup (used when an issuer is stored; every fetch judges the resolved addresses again).
   */
  public Optional<String> refusalWithoutLookup(String host) {
    String bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    String lower = bare.toLowerCase(java.util.Locale.ROOT);
    if (lower.equals("localhost") || lower.endsWith(".localhost")) {
      return refusal(InetAddress.getLoopbackAddress());
    }
    if (!bare.matches("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.%a-zA-Z]*")) {
      return Optional.empty();
    }
    try {
      return refusal(InetAddress.getByName(bare));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }

  private static Optional<InetAddress> embeddedIpv4(InetAddress address) {
    if (!(address instanceof Inet6Address)) {
      return Optional.empty();
    }
    byte[] b = address.getAddress();
    boolean zero10 = Arrays.equals(Arrays.copyOf(b, 10), new byte[10]);
    boolean mapped = zero10 && b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    boolean compatible = zero10 && b[10] == 0 && b[11] == 0 && !isLoopbackOrAny(b);
    boolean sixToFour = b[0] == 0x20 && b[1] == 0x02;
    boolean nat64 =
        b[0] == 0x00
            && b[1] == 0x64
            && b[2] == (byte) 0xff
            && b[3] == (byte) 0x9b
            && Arrays.equals(Arrays.copyOfRange(b, 4, 12), new byte[8]);
    if (mapped || compatible || nat64) {
      return Optional.of(ipv4(Arrays.copyOfRange(b, 12, 16)));
    }
    if (sixToFour) {
      return Optional.of(ipv4(Arrays.copyOfRange(b, 2, 6)));
    }
    return Optional.empty();
  }

  private static boolean isLoopbackOrAny(byte[] b) {
    for (int i = 12; i < 15; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return b[15] == 0 || b[15] == 1;
  }

  private static InetAddress ipv4(byte[] four) {
    try {
      return (Inet4Address) InetAddress.getByAddress(four);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }
}

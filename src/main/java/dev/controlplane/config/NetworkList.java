package dev.controlplane.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * A setting that lists IP networks in CIDR notation, comma-separated ({@code 127.0.0.1/32,
 * 10.20.0.0/16, fd00::/8}); an address without a length is a single host.
 */
public record NetworkList(List<Network> networks) {

  public static final NetworkList NONE = new NetworkList(List.of());

  /** One network: the address bytes (4 or 16) and how many leading bits must match. */
  public record Network(byte[] address, int bits) {

    boolean contains(byte[] candidate) {
      if (candidate.length != address.length) {
        return false;
      }
      int full = bits / 8;
      for (int i = 0; i < full; i++) {
        if (candidate[i] != address[i]) {
          return false;
        }
      }
      int rest = bits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = (0xff << (8 - rest)) & 0xff;
      return (candidate[full] & mask) == (address[full] & mask);
    }
  }

  /** Parses the setting {@code name}; a malformed entry names the setting and the entry. */
  public static NetworkList parse(String name, String text) {
    List<Network> out = new ArrayList<>();
    if (text == null) {
      return NONE;
    }
    for (String part : text.split(",")) {
      String entry = part.trim();
      if (!entry.isEmpty()) {
        out.add(network(name, entry));
      }
    }
    return new NetworkList(List.copyOf(out));
  }

  public boolean contains(InetAddress address) {
    byte[] bytes = address.getAddress();
    return networks.stream().anyMatch(n -> n.contains(bytes));
  }

  private static Network network(String name, String entry) {
    int slash = entry.indexOf('/');
    String host = slash < 0 ? entry : entry.substring(0, slash);
    // Literal addresses only: a host name here would make the rule depend on DNS.
    if (!host.matches("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
      throw bad(name, entry);
    }
    byte[] address;
    try {
      address = InetAddress.getByName(host).getAddress();
    } catch (UnknownHostException e) {
      throw bad(name, entry);
    }
    int bits = address.length * 8;
    if (slash >= 0) {
      try {
        bits = Integer.parseInt(entry.substring(slash + 1));
      } catch (NumberFormatException e) {
        throw bad(name, entry);
      }
      if (bits < 0 || bits > address.length * 8) {
        throw bad(name, entry);
      }
    }
    return new Network(address, bits);
  }

  private static IllegalArgumentException bad(String name, String entry) {
    return new IllegalArgumentException(
        name + ": '" + entry + "' is not an IP address or network in CIDR notation (10.0.0.0/8)");
  }
}

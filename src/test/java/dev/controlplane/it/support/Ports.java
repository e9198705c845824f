package dev.controlplane.it.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports for servers under test.
 *
 * <p>Ports come from below Linux's ephemeral range (32768 and up), so that no outgoing connection
 * of this machine can take one between the moment it is chosen and the moment a server binds it,
 * and a port is never handed out twice in one JVM. Asking the kernel for port 0 did both: two nodes
 * of one test cluster were once given the same port. Test JVMs running at once ({@link Fork}) each
 * take their ports from a slice of the range of their own, so neither can choose a port the other
 * has chosen but not yet bound.
 */
public final class Ports {

  private static final int RANGE_FIRST = 20_000;
  private static final int RANGE_LAST = 32_000;
  private static final int SLICE = (RANGE_LAST - RANGE_FIRST) / Fork.count();
  private static final int FIRST = RANGE_FIRST + (Fork.number() - 1) * SLICE;
  private static final int LAST = FIRST + SLICE;
  private static final Set<Integer> HANDED_OUT = new HashSet<>();

  private Ports() {}

  public static synchronized int free() {
    for (int attempt = 0; attempt < 1_000; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(FIRST, LAST);
      if (!HANDED_OUT.contains(port) && bindable(port)) {
        HANDED_OUT.add(port);
        return port;
      }
    }
    throw new IllegalStateException("no free loopback port in " + FIRST + ".." + LAST);
  }

  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(false);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}

package dev.controlplane.it.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports for servers under test. */
public final class Ports {
  private Ports() {}

  public static int free() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}

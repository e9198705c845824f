package dev.controlplane;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.error.PortUnavailableException;
import dev.controlplane.testing.PortsHeldElsewhere;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class PortsInUseTest {

  private static ServerSocket listening() throws Exception {
    ServerSocket socket = new ServerSocket();
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    return socket;
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = listening()) {
      return socket.getLocalPort();
    }
  }

  @Test
  void everyListenerWhosePortAnotherProcessHoldsIsNamedWithItsSettingInOneMessage()
      throws Exception {
    try (PortsHeldElsewhere held = PortsHeldElsewhere.hold(2)) {
      int grpc = held.port(0);
      int cluster = held.port(1);
      int free = freePort();
      PortsInUse ports =
          new PortsInUse()
              .add("gRPC", loopback(grpc), "SERVICE_CONTROLPLANE_GRPC_PORT")
              .add("bootstrap", loopback(free), "SERVICE_BOOTSTRAP_BIND_ADDR")
              .add("the cluster", loopback(cluster), "node cp1's address");
      assertThatThrownBy(ports::requireNone)
          .isInstanceOf(PortUnavailableException.class)
          .hasMessageContaining(
              "cannot listen for gRPC on 127.0.0.1:"
                  + grpc
                  + " (SERVICE_CONTROLPLANE_GRPC_PORT): the port is in use; ")
          .hasMessageContaining(
              "cannot listen for the cluster on 127.0.0.1:"
                  + cluster
                  + " (node cp1's address): the port is in use")
          .hasMessageContaining("Another process holds them")
          .hasMessageNotContaining(String.valueOf(free));
    }
  }

  /**
   * Liberty opens its HTTP port after 30 s of a start that has not finished, before this check runs
   * on a loaded machine: the port is then this process's own.
   */
  @Test
  void aPortThisProcessHoldsAlreadyIsItsOwnAndNotReported() throws Exception {
    try (ServerSocket opened = listening()) {
      PortsInUse ports =
          new PortsInUse()
              .addLibertys("HTTP", loopback(opened.getLocalPort()), "A")
              .add("gRPC", loopback(opened.getLocalPort()), "B");
      assertThatCode(ports::requireNone).doesNotThrowAnyException();
    }
  }

  @Test
  void freePortsAnUnresolvedAddressAndAnAddressOfAnotherMachineStopNothing() throws Exception {
    PortsInUse ports =
        new PortsInUse()
            .add("gRPC", loopback(freePort()), "A")
            .add("bootstrap", InetSocketAddress.createUnresolved("127.0.0.1", freePort()), "B")
            // TEST-NET-1 (RFC 5737): no interface has it; its own bind names that.
            .add("the cluster", new InetSocketAddress("192.0.2.1", 7800), "C");
    assertThatCode(ports::requireNone).doesNotThrowAnyException();
  }

  private static InetSocketAddress loopback(int port) {
    return new InetSocketAddress("127.0.0.1", port);
  }
}

package dev.controlplane;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.error.PortUnavailableException;
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
  void everyListenerWhosePortIsHeldIsNamedWithItsSettingInOneMessage() throws Exception {
    try (ServerSocket grpc = listening();
        ServerSocket cluster = listening()) {
      int free = freePort();
      PortsInUse ports =
          new PortsInUse()
              .add("gRPC", loopback(grpc.getLocalPort()), "SERVICE_CONTROLPLANE_GRPC_PORT")
              .add("bootstrap", loopback(free), "SERVICE_BOOTSTRAP_BIND_ADDR")
              .add("the cluster", loopback(cluster.getLocalPort()), "node cp1's address");
      assertThatThrownBy(ports::requireNone)
          .isInstanceOf(PortUnavailableException.class)
          .hasMessageContaining(
              "cannot listen for gRPC on 127.0.0.1:"
                  + grpc.getLocalPort()
                  + " (SERVICE_CONTROLPLANE_GRPC_PORT): the port is in use; ")
          .hasMessageContaining(
              "cannot listen for the cluster on 127.0.0.1:"
                  + cluster.getLocalPort()
                  + " (node cp1's address): the port is in use")
          .hasMessageContaining("Another process holds them")
          .hasMessageNotContaining(String.valueOf(free));
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

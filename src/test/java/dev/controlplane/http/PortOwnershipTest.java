package dev.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The kernel's socket tables tell this process's listener from nobody's (another process's: IT).
 */
class PortOwnershipTest {

  @Test
  void aPortThisProcessListensOnIsOwnedByThisProcessAndAClosedOneByNobody() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux /proc only");
    int port;
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      port = socket.getLocalPort();
      assertThat(PortOwnership.of(port)).isEqualTo(PortOwnership.Owner.THIS_PROCESS);
    }
    assertThat(PortOwnership.of(port)).isEqualTo(PortOwnership.Owner.NOBODY);
  }
}

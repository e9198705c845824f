package dev.controlplane.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.cli.InProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node that accepts connections and never answers (frozen, or the wrong port) ends a command
 * after CPCTL_REQUEST_TIMEOUT with exit 4, over gRPC as over HTTP, instead of holding it forever.
 */
class RequestTimeoutTest {

  @Test
  void aServerThatNeverAnswersEndsTheCommandWithExit4() throws Exception {
    // The kernel completes the connections into the backlog; nobody ever reads or writes them.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + silent.getLocalPort();
      Map<String, String> env = Map.of("CPCTL_REQUEST_TIMEOUT", "1", "CPCTL_TOKEN", "t");
      InProcess.Run drain =
          InProcess.cpctl(env, "--grpc-server", address, "brokers", "drain", "b1");
      assertThat(drain.exit()).as(drain.err()).isEqualTo(4);
      assertThat(drain.err()).contains("DEADLINE_EXCEEDED");
      InProcess.Run snapshot =
          InProcess.cpctl(
              Map.of("CPCTL_REQUEST_TIMEOUT", "1", "CPCTL_BROKER_TOKEN", "b"),
              "--grpc-server",
              address,
              "snapshot",
              "save",
              System.getProperty("java.io.tmpdir") + "/cpctl-timeout-snapshot.json");
      assertThat(snapshot.exit()).as(snapshot.err()).isEqualTo(4);
      InProcess.Run get = InProcess.cpctl(env, "-s", "http://" + address, "get", "tenants");
      assertThat(get.exit()).as(get.err()).isEqualTo(4);
    }
  }

  @Test
  void aTimeoutThatIsNotAWholeNumberOfSecondsIsAConfigurationError() {
    InProcess.Run run =
        InProcess.cpctl(
            Map.of("CPCTL_REQUEST_TIMEOUT", "5s", "CPCTL_TOKEN", "t"), "get", "tenants");
    assertThat(run.exit()).isEqualTo(3);
    assertThat(run.err()).contains("CPCTL_REQUEST_TIMEOUT");
  }
}

package dev.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.controlplane.testing.PortsHeldElsewhere;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The check after start-up that the HTTP port is this node's: Liberty only logs a failed bind, and
 * the check at start cannot see a port taken after it. The other process is a real one (a child
 * JVM), since ownership is read from the kernel's socket tables.
 */
class HttpListenerCheckTest {

  private static final String SETTING = "SERVICE_CONTROLPLANE_HTTP_PORT";

  @Test
  void aPortAnotherProcessHoldsWithoutAnsweringEndsTheCheckNamingThePortAndTheSetting()
      throws Exception {
    try (PortsHeldElsewhere holder = PortsHeldElsewhere.hold(1)) {
      int port = holder.port(0);
      List<String> failures = new CopyOnWriteArrayList<>();
      new HttpListenerCheck("127.0.0.1", port, "token", SETTING, Optional.empty(), failures::add)
          .run();
      assertThat(failures)
          .containsExactly(
              "HTTP port 127.0.0.1:"
                  + port
                  + " ("
                  + SETTING
                  + ") is held by another process (it accepted the connection but gave no HTTP"
                  + " answer: HttpTimeoutException)");
    }
  }

  @Test
  void aListenerThatEchoesThisNodesTokenEndsTheCheckWithoutAFailure() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String token = exchange.getRequestHeaders().getFirst(ListenerIdentity.HEADER);
          exchange.getResponseHeaders().add(ListenerIdentity.HEADER, token);
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    server.start();
    try {
      List<String> failures = new CopyOnWriteArrayList<>();
      new HttpListenerCheck(
              "127.0.0.1",
              server.getAddress().getPort(),
              "this-node",
              SETTING,
              Optional.empty(),
              failures::add)
          .run();
      assertThat(failures).isEmpty();
    } finally {
      server.stop(0);
    }
  }
}

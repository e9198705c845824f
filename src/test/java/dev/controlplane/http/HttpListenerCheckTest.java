package dev.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
    Process holder =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                Path.of(
                        PortHolder.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString(),
                PortHolder.class.getName())
            .redirectErrorStream(true)
            .start();
    try {
      int port =
          Integer.parseInt(
              new BufferedReader(
                      new InputStreamReader(holder.getInputStream(), StandardCharsets.US_ASCII))
                  .readLine()
                  .trim());
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
    } finally {
      holder.destroyForcibly().waitFor();
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

  /** Another process holding a port: it listens, prints the port, and never accepts. */
  public static final class PortHolder {
    public static void main(String[] args) throws Exception {
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        System.out.println(socket.getLocalPort());
        System.out.flush();
        Thread.sleep(120_000);
      }
    }
  }
}

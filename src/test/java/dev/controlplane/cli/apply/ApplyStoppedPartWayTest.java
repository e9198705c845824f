package dev.controlplane.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.controlplane.cli.InProcess;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An apply that stops because the server stopped answering still reports the objects that were sent
 * with the one that got no answer and were written, and says what is unknown and what was never
 * attempted: re-running the file must not be a guess.
 */
class ApplyStoppedPartWayTest {

  @Test
  void objectsWrittenBesideTheOneWithoutAnAnswerAreReportedBeforeTheRunEnds() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          if (exchange.getRequestMethod().equals("GET")) {
            byte[] body =
                ("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                        + "\"code\":\"not_found\",\"detail\":\"absent\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.sendResponseHeaders(404, body.length);
            exchange.getResponseBody().write(body);
          } else if (path.endsWith("/n2")) {
            // The connection ends with no answer, as a server that went away mid-request.
            exchange.close();
            return;
          } else {
            byte[] body = exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(201, body.length);
            exchange.getResponseBody().write(body);
          }
          exchange.close();
        });
    server.start();
    Path file = Files.createTempFile("apply-stopped", ".yaml");
    try {
      StringBuilder yaml = new StringBuilder();
      for (int i = 1; i <= 4; i++) {
        yaml.append("apiVersion: controlplane/v1\nkind: Namespace\nmetadata:\n  name: n")
            .append(i)
            .append("\n  tenant: t1\nspec: {}\n---\n");
      }
      Files.writeString(file, yaml);
      InProcess.Run run =
          InProcess.cpctl(
              Map.of("CPCTL_TOKEN", "t", "CPCTL_REQUEST_TIMEOUT", "5"),
              "-s",
              "http://127.0.0.1:" + server.getAddress().getPort(),
              "apply",
              "-f",
              file.toString(),
              "--parallel",
              "4");
      assertThat(run.exit()).as(run.err()).isEqualTo(4);
      assertThat(run.out()).contains("n1").contains("n3").contains("n4").doesNotContain("n2");
      assertThat(run.err())
          .contains("3 of 4 objects applied as listed above")
          .contains("1 whose outcome is unknown")
          .contains("0 not attempted");
    } finally {
      server.stop(0);
      Files.deleteIfExists(file);
    }
  }
}

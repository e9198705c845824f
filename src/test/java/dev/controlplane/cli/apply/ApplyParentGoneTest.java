package dev.controlplane.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.controlplane.cli.InProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A namespace whose tenant this apply created is answered 404 by the server. In a dry run that is
 * expected (the tenant was never created) and the namespace is reported as created, unchecked. In a
 * real apply it means the tenant is gone again, and reporting the namespace as created would hide
 * an object that does not exist. Prune, in a dry run, has nothing to list under such a parent.
 */
class ApplyParentGoneTest {

  private HttpServer server;
  private Path file;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          if (exchange.getRequestMethod().equals("GET") || path.contains("/namespaces/")) {
            exchange.getRequestBody().readAllBytes();
            answer(
                exchange,
                404,
                "application/problem+json",
                "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                    + "\"code\":\"not_found\",\"detail\":\"tenant t1 not found\"}");
          } else {
            answer(
                exchange,
                201,
                "application/json",
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          }
        });
    server.start();
    file = Files.createTempFile("apply-parent-gone", ".yaml");
    Files.writeString(
        file,
        "apiVersion: controlplane/v1\nkind: Tenant\nmetadata:\n  name: t1\nspec: {}\n---\n"
            + "apiVersion: controlplane/v1\nkind: Namespace\nmetadata:\n  name: n1\n"
            + "  tenant: t1\nspec: {}\n");
  }

  @AfterEach
  void stop() throws IOException {
    server.stop(0);
    Files.deleteIfExists(file);
  }

  @Test
  void aChildRefusedBecauseItsNewParentIsGoneIsAFailureOutsideADryRun() {
    InProcess.Run run = apply();
    assertThat(run.exit()).as(run.err()).isEqualTo(1);
    assertThat(run.out()).contains("namespace/t1/n1 failed").doesNotContain("not checked");
  }

  @Test
  void aChildOfAParentTheDryRunWouldCreateIsReportedAsCreatedUnchecked() {
    InProcess.Run run = apply("--dry-run=server");
    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("namespace/t1/n1 created").contains("not checked by the server");
  }

  @Test
  void aDryRunPruneFindsNothingToPruneUnderParentsTheDryRunWouldCreate() {
    InProcess.Run run = apply("--dry-run=server", "--prune");
    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    assertThat(run.err()).contains("2 objects: 2 created (server dry run)").doesNotContain("error");
    assertThat(run.out()).doesNotContain("pruned");
  }

  private InProcess.Run apply(String... extra) {
    String[] args = new String[] {"-s", url(), "apply", "-f", file.toString()};
    String[] all = java.util.Arrays.copyOf(args, args.length + extra.length);
    System.arraycopy(extra, 0, all, args.length, extra.length);
    return InProcess.cpctl(Map.of("CPCTL_TOKEN", "t", "CPCTL_REQUEST_TIMEOUT", "5"), all);
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private static void answer(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}

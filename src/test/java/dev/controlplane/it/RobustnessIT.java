package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests that must be answered plainly and leave no trace of a fault, and listeners that slow
 * clients cannot occupy (issue 9 item 4; issue 14 items 12, 13, 15).
 */
class RobustnessIT {

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  private static Set<Path> ffdcFiles() throws Exception {
    Path dir = SharedServer.process().ffdcDir();
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.collect(Collectors.toSet());
    }
  }

  /**
   * Quota exceeded, already initialized and not found are answers, not faults: Liberty records
   * every runtime exception crossing its transaction code as an FFDC incident with a stack trace,
   * which these must never reach.
   */
  @Test
  void expectedDomainErrorsWriteNoFfdcIncidentAndNoStackTrace() throws Exception {
    Set<Path> before = ffdcFiles();
    int logStart = SharedServer.process().logText().length();
    Http operator = Http.shared();
    assertThat(operator.put("/v1/tenants/quiet", Http.tenant("quiet", "x")).status())
        .isEqualTo(201);
    String full =
        "{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"full\"},"
            + "\"spec\":{\"quotas\":{\"max_streams\":0}}}";
    assertThat(operator.put("/v1/tenants/quiet/namespaces/full", full).status()).isEqualTo(201);

    var quota =
        operator.put(
            "/v1/tenants/quiet/namespaces/full/streams/s", Http.stream("quiet", "full", "s", 1, 1));
    assertThat(quota.status()).as(quota.body()).isEqualTo(429);
    Auth.bootstrap("quiet-boot", "quiet-idp", null, "alice");
    for (String existing : List.of("quiet", "quiet-boot")) {
      var initialized =
          Auth.bootstrap(
              existing,
              List.of(Auth.issuerRecord("quiet-idp", null)),
              List.of("a".repeat(64)),
              SharedServer.BOOTSTRAP_TOKEN);
      assertThat(initialized.status()).as(existing).isEqualTo(409);
    }
    assertThat(
            operator
                .put("/v1/tenants/nowhere/namespaces/n", Http.namespace("nowhere", "n", "x"))
                .status())
        .isEqualTo(404);
    assertThat(
            Auth.post(
                    SharedServer.OPERATOR_TOKEN,
                    "/v1/tenants/nowhere/idp-issuers",
                    Auth.issuerRecord("quiet-idp", null))
                .status())
        .isEqualTo(404);
    assertThat(operator.delete("/v1/tenants/nowhere").status()).isEqualTo(404);
    assertThat(operator.get("/v1/tenants/quiet/namespaces/none").status()).isEqualTo(404);
    assertThat(
            operator
                .put("/v1/tenants/quiet", "{\"kind\":\"Tenant\",\"spec\":{\"shards\":1}}")
                .status())
        .isEqualTo(400);

    Set<Path> incidents = new java.util.HashSet<>(ffdcFiles());
    incidents.removeAll(before);
    List<String> ours = new ArrayList<>();
    for (Path incident : incidents) {
      String text = Files.readString(incident);
      if (text.contains("dev.controlplane")) {
        ours.add(
            incident.getFileName()
                + ":\n"
                + text.lines().limit(8).collect(Collectors.joining("\n")));
      }
    }
    assertThat(ours).as("FFDC incidents of the service").isEmpty();
    String log = SharedServer.process().logText().substring(logStart);
    assertThat(log).doesNotContain("FFDC1015I").doesNotContain("\tat dev.controlplane");
  }

  /** 14.13: a few clients that trickle bytes neither hold every worker nor hold one for long. */
  @Test
  void slowClientsNeitherBlockNorHoldTheBootstrapListener() throws Exception {
    List<Socket> slow = new ArrayList<>();
    List<CompletableFuture<Duration>> cutOff = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Socket socket = new Socket("127.0.0.1", SharedServer.bootstrapPort());
      slow.add(socket);
      cutOff.add(CompletableFuture.supplyAsync(() -> trickle(socket)));
    }
    try {
      Thread.sleep(500);
      long start = System.nanoTime();
      Auth.bootstrap("slow-clients", "slow-clients-idp", null, "alice");
      Duration legit = Duration.ofNanos(System.nanoTime() - start);
      assertThat(legit)
          .as("a bootstrap beside four slow clients")
          .isLessThan(Duration.ofSeconds(3));
      for (var cut : cutOff) {
        assertThat(cut.get())
            .as("a slow client loses its connection")
            .isLessThan(Duration.ofSeconds(20));
      }
    } finally {
      for (Socket socket : slow) {
        socket.close();
      }
    }
  }

  /** Sends a request's head and then one byte a second; returns when the server hangs up. */
  private static Duration trickle(Socket socket) {
    long start = System.nanoTime();
    try {
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      out.write(
          ("POST /internal/bootstrap/tenants/slow/initialize HTTP/1.1\r\nHost: x\r\n"
                  + "X-Service-Bootstrap-Token: "
                  + SharedServer.BOOTSTRAP_TOKEN
                  + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      for (int i = 0; i < 60; i++) {
        out.write('{');
        out.flush();
        try {
          if (in.read() < 0) {
            break;
          }
        } catch (java.net.SocketTimeoutException stillOpen) {
          // The server is still reading; keep trickling.
        }
      }
    } catch (SocketException closed) {
      // The server closed the connection.
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /** 14.12: an alias used to be stored as its anchor's name. */
  @Test
  void yamlAnchorsAndAliasesAreRefusedAndNothingIsStored() {
    Http operator = Http.shared();
    var reply =
        operator.put(
            "/v1/tenants/yaml-alias",
            "apiVersion: controlplane/v1\nkind: Tenant\nspec: &s {description: *s}\n",
            "application/yaml");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().path("code").asText()).isEqualTo("validation_failed");
    assertThat(reply.body()).contains("anchors and aliases");
    assertThat(operator.get("/v1/tenants/yaml-alias").status()).isEqualTo(404);
  }

  /** 14.15: 540 KB of unknown fields used to get 5 MB of errors. */
  @Test
  void aBodyOfManyUnknownFieldsGetsACappedList() {
    StringBuilder body =
        new StringBuilder("{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Tenant\",\"spec\":{");
    for (int i = 0; i < 30_000; i++) {
      body.append(i == 0 ? "" : ",").append("\"unknown_field_").append(i).append("\":0");
    }
    body.append("}}");
    var reply = Http.shared().put("/v1/tenants/many-fields", body.toString());
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().path("errors").size()).isEqualTo(20);
    assertThat(reply.json().path("detail").asText())
        .isEqualTo("30000 fields are invalid; the first 20 are listed");
    assertThat(reply.body().length()).isLessThan(body.length() / 50);
  }
}

package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No secret, token or key material in any log line: the run's server logs (every node's console,
 * which carries Liberty's messages, access log and FFDC summaries, under target/it-logs, and the
 * shared node's FFDC incident files) are scanned for the secrets the tests configure and for the
 * tokens this test uses, after exercising every path that handles them, including failures. In a
 * full run it runs last (pom.xml, profile full-it-run), so it scans the logs of every test.
 */
class LogSecretsIT {

  private static final Path LOGS = Path.of("target", "it-logs");

  /**
   * Findings in the logs the run wrote before this test starts a server (which may reuse a name).
   */
  private static List<String> earlier;

  @BeforeAll
  static void scanEarlierLogsThenStart() throws Exception {
    earlier = scan(logFiles(), configuredSecrets());
    SharedServer.ensureStarted();
  }

  @Test
  void noConfiguredSecretNorUsedTokenAppearsInAnyServerLog() throws Exception {
    Map<String, String> secrets = configuredSecrets();
    secrets.putAll(exerciseTokenPaths());
    List<Path> files = logFiles();
    assertThat(files).as("server logs of this run").isNotEmpty();
    assertThat(earlier).as("secrets found in the logs of earlier tests").isEmpty();
    assertThat(scan(files, secrets)).as("secrets found in logs").isEmpty();
  }

  private static Map<String, String> configuredSecrets() {
    Map<String, String> secrets = new LinkedHashMap<>();
    secrets.put("broker token", SharedServer.BROKER_TOKEN);
    secrets.put("operator token", SharedServer.OPERATOR_TOKEN);
    secrets.put("bootstrap token", SharedServer.BOOTSTRAP_TOKEN);
    secrets.put("key-encryption key", SharedServer.KEY_ENCRYPTION_KEY);
    secrets.put("rotated broker token", SharedCredentialRotationIT.BROKER_NEW);
    secrets.put("fallback broker token", SharedCredentialRotationIT.BROKER_OLD);
    secrets.put("rotated operator token", SharedCredentialRotationIT.OPERATOR_NEW);
    secrets.put("fallback operator token", SharedCredentialRotationIT.OPERATOR_OLD);
    return secrets;
  }

  /** What each file contains of {@code secrets} or of private-key encodings (PEM, JWK "d"). */
  private static List<String> scan(List<Path> files, Map<String, String> secrets)
      throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : files) {
      String text = Files.readString(file, java.nio.charset.StandardCharsets.ISO_8859_1);
      secrets.forEach(
          (what, secret) -> {
            if (text.contains(secret)) {
              found.add(what + " in " + file);
            }
          });
      if (text.contains("PRIVATE KEY-----") || text.contains("\"d\":\"")) {
        found.add("private key material in " + file);
      }
    }
    return found;
  }

  /** Bootstrap, exchange (issued and refused), admin and broker calls with good and bad secrets. */
  private static Map<String, String> exerciseTokenPaths() throws Exception {
    Map<String, String> used = new LinkedHashMap<>();
    Auth.bootstrap("logscan", "idp-logscan", null, "alice");
    String upstream = OidcProvider.token("idp-logscan", "alice", Map.of());
    used.put("upstream token", upstream);
    used.put("upstream token signature", upstream.substring(upstream.lastIndexOf('.') + 1));
    String service = Auth.serviceToken("logscan", upstream, "{}");
    used.put("service token", service);
    used.put("service token signature", service.substring(service.lastIndexOf('.') + 1));
    String stranger = OidcProvider.token("idp-logscan", "mallory", Map.of());
    Auth.exchange("logscan", stranger, "{}"); // refused: no permission
    used.put("refused upstream token", stranger);
    String forged = upstream.substring(0, upstream.lastIndexOf('.') + 1) + "AAAA" + "x".repeat(80);
    Auth.exchange("logscan", forged, "{}"); // refused: bad signature
    used.put("forged token", forged);
    new Http(SharedServer.httpPort(), service).get("/v1/tenants/logscan");
    new Http(SharedServer.httpPort(), forged).get("/v1/tenants/logscan");
    String wrongBroker = "wrong-broker-secret-5f1c2b";
    try (Grpc grpc = new Grpc(SharedServer.grpcPort(), wrongBroker)) {
      grpc.metadata()
          .getSnapshot(GetSnapshotRequest.getDefaultInstance())
          .forEachRemaining(c -> {});
    } catch (StatusRuntimeException expected) {
      // refused; the point is what got logged
    }
    used.put("wrong broker secret", wrongBroker);
    String wrongBootstrap = "wrong-bootstrap-secret-77a0";
    Auth.bootstrap("logscan2", List.of(), List.of("bob"), wrongBootstrap);
    used.put("wrong bootstrap secret", wrongBootstrap);
    return used;
  }

  private static List<Path> logFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(LOGS)) {
      try (Stream<Path> logs = Files.list(LOGS)) {
        logs.filter(Files::isRegularFile).forEach(files::add);
      }
    }
    Path ffdc = SharedServer.process() == null ? null : SharedServer.process().ffdcDir();
    if (ffdc != null && Files.isDirectory(ffdc)) {
      try (Stream<Path> incidents = Files.list(ffdc)) {
        incidents.filter(Files::isRegularFile).forEach(files::add);
      }
    }
    return files;
  }
}

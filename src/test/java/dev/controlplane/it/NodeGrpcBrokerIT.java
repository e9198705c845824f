package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.it.support.Commands;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A broker written in JavaScript against proto/ with grpc-js and proto-loader, the stock gRPC stack
 * of Node.js (src/test/node-grpc/broker.mjs, dependencies from the npm registry at the versions of
 * its package-lock.json), run against the real server: another HTTP/2 implementation, another
 * protobuf runtime, no code of ours on the client side. Skipped only when Node.js is not installed
 * at all; a failing npm install fails the test.
 */
class NodeGrpcBrokerIT {

  private static final Path WORK = Path.of("target", "node-grpc-it");
  private static final String TENANT = "node-grpc";
  private static final String BROKER = "node-broker-1";

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  @Test
  void aNodeBrokerRegistersSnapshotsWatchesResumesAndGetsTheDocumentedErrorCodes()
      throws Exception {
    Assumptions.assumeTrue(
        Commands.onPath("node"), "Node.js is not installed: the broker cannot run here");
    Http http = Http.shared();
    assertThat(http.put("/v1/tenants/" + TENANT, Http.tenant(TENANT, "node")).status())
        .isBetween(200, 201);
    Files.createDirectories(WORK);
    for (String file : List.of("package.json", "package-lock.json", "broker.mjs")) {
      Files.copy(
          Path.of("src", "test", "node-grpc", file),
          WORK.resolve(file),
          StandardCopyOption.REPLACE_EXISTING);
    }
    Commands.run(
        WORK,
        List.of("npm", "ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"));
    String output =
        Commands.run(
            WORK,
            List.of(
                "node",
                "broker.mjs",
                "127.0.0.1:" + SharedServer.grpcPort(),
                "http://127.0.0.1:" + SharedServer.httpPort(),
                SharedServer.BROKER_TOKEN,
                SharedServer.OPERATOR_TOKEN,
                TENANT,
                BROKER,
                Path.of("proto").toAbsolutePath().toString()));
    JsonNode report = Http.JSON.readTree(output.lines().reduce((a, b) -> b).orElse("{}"));

    JsonNode registered = report.path("register").path("ok");
    assertThat(registered.path("broker").path("name").asText()).as(output).isEqualTo(BROKER);
    assertThat(registered.path("broker").path("region").asText()).isEqualTo("eu-west-1");
    assertThat(registered.path("broker").path("labels").path("rack").asText()).isEqualTo("r7");
    assertThat(registered.path("heartbeat_interval_ms").asLong())
        .isEqualTo(SharedServer.HEARTBEAT.toMillis());
    assertThat(report.path("health").path("ok").path("broker_status").asText())
        .isEqualTo("BROKER_STATUS_ACTIVE");

    JsonNode snapshot = report.path("snapshot");
    assertThat(snapshot.path("error").isNull()).as(snapshot.toString()).isTrue();
    assertThat(snapshot.path("lastMarked").asBoolean()).isTrue();
    assertThat(snapshot.path("sameVersion").asBoolean()).isTrue();
    assertThat(texts(snapshot.path("tenants"))).contains(TENANT);
    assertThat(snapshot.path("broker").path("address").asText()).isEqualTo("127.0.0.1:9092");
    long snapshotVersion = Long.parseLong(snapshot.path("version").asText());
    assertThat(snapshotVersion).isPositive();

    // The six writes' versions, as the HTTP API answered them.
    List<Long> written = new ArrayList<>();
    report.path("written").forEach(v -> written.add(Long.parseLong(v.asText())));
    assertThat(written).hasSize(6);
    assertThat(written.get(0)).isGreaterThan(snapshotVersion);

    // Every change after the snapshot, in order and without a gap, the six among them.
    JsonNode watch = report.path("watch");
    assertThat(watch.path("timedOut").asBoolean()).as(watch.toString()).isFalse();
    assertThat(watch.path("error").isNull()).as(watch.toString()).isTrue();
    List<Long> versions = versions(watch.path("changes"));
    assertThat(versions.get(0)).isEqualTo(snapshotVersion + 1);
    assertGapless(versions);
    assertThat(versions).containsAll(written);
    for (JsonNode change : watch.path("changes")) {
      if (written.contains(Long.parseLong(change.path("version").asText()))) {
        assertThat(change.path("payload").asText()).isEqualTo("namespace");
        assertThat(change.path("type").asText()).isEqualTo("CREATE");
        assertThat(change.path("name").asText()).startsWith("node-ns-");
      }
    }

    // Resumed after the third write: the same changes from the next version on.
    JsonNode resumed = report.path("resumed");
    assertThat(resumed.path("timedOut").asBoolean()).as(resumed.toString()).isFalse();
    List<Long> resumedVersions = versions(resumed.path("changes"));
    assertThat(resumedVersions.get(0)).isEqualTo(written.get(2) + 1);
    assertGapless(resumedVersions);
    assertThat(resumedVersions).contains(written.get(3), written.get(4), written.get(5));
    for (int i = 0; i < resumed.path("changes").size(); i++) {
      JsonNode again = resumed.path("changes").get(i);
      JsonNode before =
          watch
              .path("changes")
              .get(versions.indexOf(Long.parseLong(again.path("version").asText())));
      if (before != null) {
        assertThat(again).isEqualTo(before);
      }
    }

    JsonNode errors = report.path("errors");
    assertThat(errors.path("watchAhead").asText()).isEqualTo("OUT_OF_RANGE");
    assertThat(errors.path("snapshotWrongCredential").asText()).isEqualTo("UNAUTHENTICATED");
    assertThat(errors.path("snapshotNoCredential").asText()).isEqualTo("UNAUTHENTICATED");
    assertThat(errors.path("registerAuto").asText()).isEqualTo("INVALID_ARGUMENT");
    assertThat(errors.path("healthUnknown").asText()).isEqualTo("NOT_FOUND");

    // What the Node broker registered is what the HTTP API serves.
    JsonNode stored = http.get("/v1/brokers/" + BROKER).json();
    assertThat(stored.path("spec").path("address").asText())
        .as(stored.toString())
        .isEqualTo("127.0.0.1:9092");
    assertThat(stored.path("spec").path("labels").path("rack").asText()).isEqualTo("r7");
  }

  private static List<Long> versions(JsonNode changes) {
    List<Long> versions = new ArrayList<>();
    changes.forEach(c -> versions.add(Long.parseLong(c.path("version").asText())));
    return versions;
  }

  private static void assertGapless(List<Long> versions) {
    for (int i = 1; i < versions.size(); i++) {
      assertThat(versions.get(i))
          .as("version after " + versions.get(i - 1))
          .isEqualTo(versions.get(i - 1) + 1);
    }
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(t -> texts.add(t.asText()));
    return texts;
  }
}

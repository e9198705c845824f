package dev.controlplane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Certificates.Pair;
import dev.controlplane.it.support.CpctlRunner;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.WatchCollector;
import dev.controlplane.proto.v1.BrokerCapacity;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.HealthStatus;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.ReportHealthRequest;
import io.grpc.ChannelCredentials;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on every listener and mutual TLS for brokers, on a real node with certificates made by
 * openssl in the test, reached by stock clients: curl with --cacert, grpc-java, the JDK.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TransportSecurityIT {

  @TempDir static Path dir;

  static Certificates certs;
  static Pair serverCa;
  static Pair brokerCa;
  static Pair served; // the files the node reads
  static IsolatedServer node;
  static int grpcPort;
  static Path crl; // the broker CA's revocation list the node reads

  @BeforeAll
  static void start() throws Exception {
    certs = new Certificates(dir);
    serverCa = certs.ca("server-ca");
    brokerCa = certs.ca("broker-ca");
    Pair first = certs.server(serverCa, "controlplane");
    served = new Pair(dir.resolve("tls.crt"), dir.resolve("tls.key"));
    Certificates.install(first, served);
    grpcPort = Ports.free();
    crl = dir.resolve("brokers.crl");
    certs.crl(brokerCa, crl); // nothing revoked yet
    node =
        IsolatedServer.start(
            "tls",
            Map.of(
                "SERVICE_CONTROLPLANE_GRPC_PORT",
                Integer.toString(grpcPort),
                "SERVICE_CONTROLPLANE_TLS_CERT_PATH",
                served.cert().toString(),
                "SERVICE_CONTROLPLANE_TLS_KEY_PATH",
                served.key().toString(),
                "SERVICE_CONTROLPLANE_TLS_RELOAD_INTERVAL",
                "500ms",
                "SERVICE_CONTROLPLANE_MTLS_ENABLED",
                "true",
                "SERVICE_CONTROLPLANE_MTLS_CA_CERT_PATH",
                brokerCa.cert().toString(),
                "SERVICE_CONTROLPLANE_MTLS_ALLOWED_COMMON_NAMES",
                "broker-a, broker-b",
                "SERVICE_CONTROLPLANE_MTLS_CRL_PATH",
                crl.toString(),
                "SERVICE_CONTROLPLANE_LOG_FORMAT",
                "json"));
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  @Test
  @Order(1)
  void curlReadsHealthOverHttpsTrustingOnlyTheTestCa() throws Exception {
    Curl ok = curl(serverCa.cert(), "https://127.0.0.1:" + node.httpPort() + "/health/ready");
    assertEquals("200", ok.status(), ok.output());
    assertTrue(ok.output().contains("\"UP\""), ok.output());
  }

  @Test
  @Order(2)
  void plainHttpIsNotServedWhenTlsIsOn() throws Exception {
    Curl plain = curl(null, "http://127.0.0.1:" + node.httpPort() + "/health/ready");
    assertNotEquals("200", plain.status(), plain.output());
  }

  @Test
  @Order(3)
  void httpsNegotiatesTls13AndStillAcceptsTls12Clients() throws Exception {
    assertEquals("TLSv1.3", handshake(node.httpPort(), null));
    assertEquals("TLSv1.2", handshake(node.httpPort(), "TLSv1.2"));
    assertEquals("TLSv1.3", handshake(grpcPort, null));
    assertEquals("TLSv1.2", handshake(grpcPort, "TLSv1.2"));
  }

  @Test
  @Order(4)
  void bootstrapListenerServesTls() throws Exception {
    Curl refused =
        curl(
            serverCa.cert(),
            "https://127.0.0.1:"
                + node.bootstrapPort()
                + "/internal/bootstrap/tenants/t1/initialize",
            "-X",
            "POST",
            "-H",
            "X-Service-Bootstrap-Token: wrong");
    assertEquals("401", refused.status(), refused.output());
    assertTrue(refused.output().contains("invalid_token"), refused.output());
  }

  @Test
  @Order(5)
  void grpcJavaClientOverTlsNeedsNoCertificateForHealthChecks() throws Exception {
    try (Grpc grpc =
        channel(
            TlsChannelCredentials.newBuilder().trustManager(serverCa.cert().toFile()).build(),
            null)) {
      var health =
          HealthGrpc.newBlockingStub(grpc.channel())
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .check(HealthCheckRequest.getDefaultInstance());
      assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.getStatus());
    }
  }

  @Test
  @Order(6)
  void brokerWithAnAllowedCertificateRegistersReportsAndReadsAsItself() throws Exception {
    try (Grpc grpc = broker(brokerCa, "broker-a", null)) {
      var registered = grpc.brokers().registerBroker(registration("broker-a"));
      assertEquals("broker-a", registered.getBroker().getName());
      grpc.brokers().reportHealth(heartbeat("broker-a"));
      grpc.metadata()
          .getSnapshot(GetSnapshotRequest.getDefaultInstance())
          .forEachRemaining(c -> {});
    }
  }

  @Test
  @Order(7)
  void brokerCannotRegisterOrReportAsAnotherBroker() throws Exception {
    try (Grpc grpc = broker(brokerCa, "broker-a", null)) {
      var register =
          assertThrows(
              StatusRuntimeException.class,
              () -> grpc.brokers().registerBroker(registration("broker-b")));
      assertEquals(Status.Code.PERMISSION_DENIED, register.getStatus().getCode());
      assertTrue(register.getStatus().getDescription().contains("broker-a"));
      var report =
          assertThrows(
              StatusRuntimeException.class,
              () -> grpc.brokers().reportHealth(heartbeat("broker-b")));
      assertEquals(Status.Code.PERMISSION_DENIED, report.getStatus().getCode());
    }
  }

  @Test
  @Order(8)
  void certificateFromAnotherCaIsRefusedInTheHandshake() throws Exception {
    Pair rogue = certs.client(certs.ca("rogue-ca"), "broker-a");
    // A stock JDK client sends no certificate whose issuer the server did not ask for; this one
    // insists, so the server itself must refuse the chain.
    var insisting = new io.grpc.util.AdvancedTlsX509KeyManager();
    insisting.updateIdentityCredentials(rogue.cert().toFile(), rogue.key().toFile());
    var credentials =
        TlsChannelCredentials.newBuilder()
            .trustManager(serverCa.cert().toFile())
            .keyManager(insisting)
            .build();
    try (Grpc grpc = channel(credentials, null)) {
      var refused =
          assertThrows(
              StatusRuntimeException.class,
              () -> grpc.brokers().registerBroker(registration("broker-a")));
      assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode(), refused.toString());
    }
  }

  @Test
  @Order(9)
  void commonNameNotAllowedIsRefused() throws Exception {
    try (Grpc grpc = broker(brokerCa, "broker-z", null)) {
      var refused =
          assertThrows(
              StatusRuntimeException.class,
              () -> grpc.brokers().registerBroker(registration("broker-z")));
      assertEquals(Status.Code.PERMISSION_DENIED, refused.getStatus().getCode());
      assertTrue(refused.getStatus().getDescription().contains("broker-z"));
    }
  }

  @Test
  @Order(10)
  void sharedBrokerTokenIsRefusedWhileCertificatesAreRequired() throws Exception {
    var credentials =
        TlsChannelCredentials.newBuilder().trustManager(serverCa.cert().toFile()).build();
    try (Grpc grpc = channel(credentials, SharedServer.BROKER_TOKEN)) {
      var refused =
          assertThrows(
              StatusRuntimeException.class,
              () -> grpc.brokers().registerBroker(registration("broker-a")));
      assertEquals(Status.Code.UNAUTHENTICATED, refused.getStatus().getCode());
    }
    Curl http =
        curl(
            serverCa.cert(),
            "https://127.0.0.1:" + node.httpPort() + "/v1/tenants",
            "-H",
            "Authorization: Bearer " + SharedServer.BROKER_TOKEN);
    assertEquals("401", http.status(), "the broker token is off on HTTP too: " + http.output());
  }

  @Test
  @Order(11)
  void jsonLogCarriesLibertyAndServiceMessagesNoKeyMaterialAndNoWarningButTheNodesOwn()
      throws Exception {
    String log = node.process().logText();
    List<String> lines = log.lines().toList();
    int first = 0;
    while (first < lines.size() && !lines.get(first).startsWith("{")) {
      first++; // the runnable JAR's launcher prints a few plain lines before the server starts
    }
    assertTrue(first < lines.size() - 10, log);
    var json = new com.fasterxml.jackson.databind.ObjectMapper();
    List<String> modules = new ArrayList<>();
    List<String> messageIds = new ArrayList<>();
    List<String> notTheNodes = new ArrayList<>();
    for (String line : lines.subList(first, lines.size())) {
      if (line.isBlank() || line.startsWith("OpenJDK 64-Bit Server VM warning")) {
        continue; // the JVM prints its own warnings, outside any logging framework
      }
      var record = json.readTree(line); // throws on a line that is not JSON
      modules.add(record.path("module").asText());
      messageIds.add(record.path("ibm_messageId").asText());
      if (List.of("WARN", "WARNING", "ERROR", "SEVERE", "SystemErr")
              .contains(record.path("loglevel").asText())
          && !record.path("module").asText().startsWith("dev.controlplane.")) {
        notTheNodes.add(record.path("message").asText());
      }
    }
    // Plain HTTP on the HTTPS port (Order 2) and refused handshakes are the clients' mistakes, and
    // a start with TLS on warns about nothing but what this node chose (its own lines).
    assertTrue(
        notTheNodes.isEmpty(),
        "warnings, errors or stderr from Liberty or a library: " + notTheNodes);
    assertTrue(modules.contains("dev.controlplane.tls.TransportSecurity"), modules.toString());
    assertTrue(messageIds.contains("CWWKF0011I"), "Liberty's ready message");
    String key = Files.readString(served.key());
    String keyBody = key.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
    assertFalse(log.contains("PRIVATE KEY") || log.contains(keyBody), "key material in the log");
  }

  @Test
  @Order(12)
  void cpctlReachesTheNodeOverHttpsWithItsCaFile(@TempDir Path home) throws Exception {
    CpctlRunner cpctl =
        new CpctlRunner(home)
            .env("CPCTL_TOKEN", SharedServer.OPERATOR_TOKEN)
            .env("CPCTL_SERVER", "https://127.0.0.1:" + node.httpPort())
            .env("CPCTL_CA_FILE", serverCa.cert().toString());
    var status = cpctl.run("cluster", "status", "-o", "json");
    assertEquals(0, status.exit(), status.toString());
    assertTrue(status.out().contains("\"leader\""), status.out());
    var untrusted =
        new CpctlRunner(home)
            .env("CPCTL_TOKEN", SharedServer.OPERATOR_TOKEN)
            .env("CPCTL_SERVER", "https://127.0.0.1:" + node.httpPort())
            .run("cluster", "status");
    assertNotEquals(0, untrusted.exit(), "the JDK's CAs do not trust the test CA");
  }

  @Test
  @Order(13)
  void cpctlPresentsABrokerCertificateWhereBrokerRpcsRequireOne(@TempDir Path home)
      throws Exception {
    Pair broker = certs.client(brokerCa, "broker-a");
    String tls = "https://127.0.0.1:" + grpcPort;
    var noCredential = snapshotWith(home, tls, Map.of());
    assertEquals(3, noCredential.exit(), noCredential.toString());
    assertTrue(noCredential.err().contains("CPCTL_CLIENT_CERT"), noCredential.toString());
    var operatorOnly = snapshotWith(home, tls, Map.of("CPCTL_TOKEN", SharedServer.OPERATOR_TOKEN));
    assertNotEquals(0, operatorOnly.exit(), operatorOnly.toString());
    assertTrue(operatorOnly.err().contains("certificate"), operatorOnly.toString());

    Map<String, String> certificate =
        Map.of(
            "CPCTL_CLIENT_CERT", broker.cert().toString(),
            "CPCTL_CLIENT_KEY", broker.key().toString());
    Path saved = home.resolve("snapshot.json");
    var snapshot = snapshotWith(home, tls, certificate, saved.toString());
    assertEquals(0, snapshot.exit(), snapshot.toString());
    assertTrue(
        new ObjectMapper().readTree(saved.toFile()).path("version").asLong() > 0,
        Files.readString(saved));

    var plaintext = snapshotWith(home, "127.0.0.1:" + grpcPort, certificate);
    assertEquals(3, plaintext.exit(), plaintext.toString());
    assertTrue(plaintext.err().contains("is plaintext"), plaintext.toString());

    Path noKey = home.resolve("no-such.key");
    var missingKey =
        snapshotWith(
            home,
            tls,
            Map.of(
                "CPCTL_CLIENT_CERT", broker.cert().toString(),
                "CPCTL_CLIENT_KEY", noKey.toString()));
    assertEquals(3, missingKey.exit(), missingKey.toString());
    assertTrue(missingKey.err().contains(noKey.toString()), missingKey.toString());
  }

  /** {@code cpctl snapshot save} (to stdout unless a file is given) trusting the test's CA. */
  private static CpctlRunner.Run snapshotWith(
      Path home, String grpcServer, Map<String, String> env, String... file) {
    CpctlRunner cpctl =
        new CpctlRunner(home)
            .env("CPCTL_GRPC_SERVER", grpcServer)
            .env("CPCTL_CA_FILE", serverCa.cert().toString());
    env.forEach(cpctl::env);
    return cpctl.run("snapshot", "save", file.length == 0 ? "-" : file[0]);
  }

  @Test
  @Order(14)
  void aBrokerCertificateRevokedOnDiskIsRefusedWithoutRestartOthersStillConnect() throws Exception {
    Pair revoked = certs.client(brokerCa, "broker-b");
    try (Grpc grpc = brokerWith(revoked, serverCa)) {
      assertEquals(
          "broker-b",
          grpc.brokers().registerBroker(registration("broker-b")).getBroker().getName());
    }
    // A connection the broker holds across the revocation, with a watch open on it.
    try (Grpc held = brokerWith(revoked, serverCa)) {
      var snapshot = held.metadata().getSnapshot(GetSnapshotRequest.getDefaultInstance());
      long head = snapshot.next().getVersion();
      snapshot.forEachRemaining(chunk -> {});
      WatchCollector watch = WatchCollector.open(held.metadataAsync(), head);
      assertTrue(watch.awaitProgress(Duration.ofSeconds(10)), "the watch is open");
      Path next = dir.resolve("brokers.crl.next");
      certs.crl(brokerCa, next, revoked);
      Files.move(next, crl, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      Status.Code code = Status.Code.OK;
      while (code != Status.Code.UNAVAILABLE && System.nanoTime() < deadline) {
        try (Grpc grpc = brokerWith(revoked, serverCa)) {
          grpc.brokers().reportHealth(heartbeat("broker-b"));
          Thread.sleep(200);
        } catch (StatusRuntimeException e) {
          code = e.getStatus().getCode();
        }
      }
      assertEquals(Status.Code.UNAVAILABLE, code, "the revoked certificate's handshake is refused");
      String withdrawn =
          "the client certificate is no longer accepted: the certificate has been revoked";
      Status ended = watch.awaitClose(Duration.ofSeconds(10));
      assertEquals(Status.Code.UNAUTHENTICATED, ended.getCode(), ended.toString());
      assertEquals(withdrawn, ended.getDescription(), "the watch opened before is ended");
      StatusRuntimeException onHeld =
          assertThrows(
              StatusRuntimeException.class,
              () -> held.brokers().reportHealth(heartbeat("broker-b")),
              "a call on the connection held since before the revocation");
      assertEquals(Status.Code.UNAUTHENTICATED, onHeld.getStatus().getCode());
      assertEquals(withdrawn, onHeld.getStatus().getDescription());
    }
    try (Grpc grpc = broker(brokerCa, "broker-b", null)) { // a new certificate of the same broker
      grpc.brokers().reportHealth(heartbeat("broker-b"));
    }
    assertTrue(
        node.process().logText().contains("refused a revoked client certificate"),
        "the refusal is logged");
  }

  @Test
  @Order(20)
  void certificateSwappedOnDiskIsServedWithoutRestart() throws Exception {
    Pair newCa = certs.ca("server-ca-2");
    Certificates.install(certs.server(newCa, "controlplane"), served);
    String https = "https://127.0.0.1:" + node.httpPort() + "/health/ready";
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!curl(newCa.cert(), https).status().equals("200") && System.nanoTime() < deadline) {
      Thread.sleep(250);
    }
    assertEquals("200", curl(newCa.cert(), https).status(), "HTTPS serves the new certificate");
    assertNotEquals("200", curl(serverCa.cert(), https).status(), "the old one is gone");
    Curl bootstrap =
        curl(
            newCa.cert(),
            "https://127.0.0.1:"
                + node.bootstrapPort()
                + "/internal/bootstrap/tenants/t1/initialize",
            "-X",
            "POST");
    assertEquals("401", bootstrap.status(), bootstrap.output());
    try (Grpc grpc = broker(brokerCa, "broker-b", newCa)) {
      assertEquals(
          "broker-b",
          grpc.brokers().registerBroker(registration("broker-b")).getBroker().getName());
    }
  }

  @Test
  @Order(21)
  void startWithAnUnreadableKeyFailsNamingTheSetting() throws Exception {
    Path missing = dir.resolve("no-such.key");
    Map<String, String> env =
        SharedServer.baseEnvironment(Ports.free(), Ports.free(), IsolatedServer.database("trust"));
    env.put("SERVICE_CONTROLPLANE_TLS_CERT_PATH", served.cert().toString());
    env.put("SERVICE_CONTROLPLANE_TLS_KEY_PATH", missing.toString());
    try (ServerProcess process = new ServerProcess("tls-bad-key", env).start()) {
      assertEquals(3, process.awaitExit(Duration.ofSeconds(90)));
      String log = process.logText();
      assertTrue(
          log.contains("SERVICE_CONTROLPLANE_TLS_KEY_PATH") && log.contains(missing.toString()),
          process.tail());
    }
  }

  // --- clients

  private static Grpc broker(Pair ca, String cn, Pair trustedServerCa) throws Exception {
    return brokerWith(certs.client(ca, cn), trustedServerCa);
  }

  private static Grpc brokerWith(Pair client, Pair trustedServerCa) throws Exception {
    ChannelCredentials credentials =
        TlsChannelCredentials.newBuilder()
            .trustManager((trustedServerCa == null ? serverCa : trustedServerCa).cert().toFile())
            .keyManager(client.cert().toFile(), client.key().toFile())
            .build();
    return channel(credentials, null);
  }

  private static Grpc channel(ChannelCredentials credentials, String token) {
    return new Grpc(
        NettyChannelBuilder.forAddress("127.0.0.1", grpcPort, credentials).build(), token);
  }

  /** The protocol the JDK negotiates with the port, optionally limited to one version. */
  private static String handshake(int port, String only) throws Exception {
    var factory = Certificates.trusting(serverCa.cert()).getSocketFactory();
    try (SSLSocket socket = (SSLSocket) factory.createSocket("127.0.0.1", port)) {
      if (only != null) {
        socket.setEnabledProtocols(new String[] {only});
      }
      socket.setSoTimeout(5000);
      socket.startHandshake();
      return socket.getSession().getProtocol();
    }
  }

  record Curl(String status, String output) {}

  private static Curl curl(Path caCert, String url, String... extra) throws Exception {
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "5"));
    if (caCert != null) {
      command.addAll(List.of("--cacert", caCert.toString()));
    }
    command.addAll(List.of(extra));
    command.addAll(List.of("-w", "\n%{http_code}", url));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes()).trim();
    process.waitFor(10, TimeUnit.SECONDS);
    String status = out.substring(out.lastIndexOf('\n') + 1);
    return new Curl(status, out);
  }

  private static RegisterBrokerRequest registration(String id) {
    return RegisterBrokerRequest.newBuilder()
        .setBrokerId(id)
        .setAddress("10.0.0.9:7000")
        .setCapacity(BrokerCapacity.newBuilder().setMaxShards(100).setMaxConnections(1000))
        .build();
  }

  private static ReportHealthRequest heartbeat(String id) {
    return ReportHealthRequest.newBuilder()
        .setBrokerId(id)
        .setStatus(HealthStatus.newBuilder().setHealthy(true).setUptimeSeconds(5))
        .build();
  }
}

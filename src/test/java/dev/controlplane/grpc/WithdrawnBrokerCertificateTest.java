package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.config.SharedSecret;
import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Certificates.Pair;
import dev.controlplane.tls.TlsSettings;
import dev.controlplane.tls.TransportSecurity;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.grpc.protobuf.services.HealthStatusManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker certificate the operator withdraws (a CRL lists it, or its CA leaves the CA file) is
 * refused on the broker's next call, however that call arrives: on a connection opened before the
 * change, or on a new one whose TLS session was resumed, which skips the handshake's certificate
 * check. The server is the node's own gRPC TLS setup and broker interceptor; the client is
 * grpc-java over BoringSSL, which resumes sessions.
 */
class WithdrawnBrokerCertificateTest {

  private static final String HEALTH = "grpc.health.v1.Health";

  @TempDir Path dir;

  @Test
  void aRevokedOrNoLongerTrustedBrokerCertificateIsRefusedOnOpenAndResumedConnections()
      throws Exception {
    Certificates certs = new Certificates(dir);
    Pair nodeCa = certs.ca("node-ca");
    Pair node = certs.server(nodeCa, "node");
    Pair brokerCa = certs.ca("brokers");
    Pair b1 = certs.client(brokerCa, "b1");
    Pair other = certs.client(brokerCa, "other");
    Path caFile = dir.resolve("broker-ca.pem");
    Files.copy(brokerCa.cert(), caFile);
    Path crl = certs.crl(brokerCa, dir.resolve("brokers.crl"), other);
    try (TransportSecurity tls = TransportSecurity.start(mtls(node, caFile, Optional.of(crl)))) {
      Server server = server(tls);
      SslContext b1Tls =
          GrpcSslContexts.configure(SslContextBuilder.forClient(), SslProvider.OPENSSL)
              .keyManager(b1.cert().toFile(), b1.key().toFile())
              .trustManager(nodeCa.cert().toFile())
              .build();
      Supplier<ManagedChannel> channel =
          () ->
              NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                  .overrideAuthority("localhost")
                  .sslContext(b1Tls)
                  .build();
      ManagedChannel open = channel.get();
      try {
        assertThat(check(open)).isEqualTo("OK");

        certs.crl(brokerCa, crl, other, b1);
        // A full handshake is refused once the node has read the new CRL.
        awaitFresh(b1, nodeCa, server.getPort(), "UNAVAILABLE");
        ManagedChannel resumed = channel.get();
        try {
          assertThat(check(resumed))
              .as("a new connection, its session resumed from before the revocation")
              .isEqualTo(
                  "UNAUTHENTICATED: the client certificate is no longer accepted: the"
                      + " certificate has been revoked");
        } finally {
          resumed.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        assertThat(check(open))
            .as("the connection opened before the revocation")
            .isEqualTo(
                "UNAUTHENTICATED: the client certificate is no longer accepted: the"
                    + " certificate has been revoked");

        certs.crl(brokerCa, crl, other);
        awaitCheck(open, "OK");

        // The broker CA is replaced; the CRL must then be the new CA's.
        Pair newCa = certs.ca("new-brokers");
        Files.copy(newCa.cert(), caFile, StandardCopyOption.REPLACE_EXISTING);
        certs.crl(newCa, crl, certs.client(newCa, "someone"));
        awaitCheck(
            open,
            "UNAUTHENTICATED: the client certificate is no longer accepted: it fails the check"
                + " against the mTLS client CA file");
      } finally {
        open.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * A broker certificate that expires while its connection is open is refused on the next call,
   * though the CA and CRL files did not change: the kept outcome of its check lasts only as long as
   * the certificate.
   */
  @Test
  void aBrokerCertificateThatExpiresOnAnOpenConnectionIsRefusedOnTheNextCall() throws Exception {
    Certificates certs = new Certificates(dir);
    Pair nodeCa = certs.ca("node-ca");
    Pair node = certs.server(nodeCa, "node");
    Pair brokerCa = certs.ca("brokers");
    java.time.Instant expiry = java.time.Instant.now().plusSeconds(8);
    Pair shortLived = certs.clientUntil(brokerCa, "b1", expiry);
    try (TransportSecurity tls =
        TransportSecurity.start(mtls(node, brokerCa.cert(), Optional.empty()))) {
      Server server = server(tls);
      ManagedChannel open =
          NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
              .overrideAuthority("localhost")
              .sslContext(
                  GrpcSslContexts.configure(SslContextBuilder.forClient(), SslProvider.OPENSSL)
                      .keyManager(shortLived.cert().toFile(), shortLived.key().toFile())
                      .trustManager(nodeCa.cert().toFile())
                      .build())
              .build();
      try {
        assertThat(check(open)).isEqualTo("OK");
        Thread.sleep(Math.max(0, Duration.between(java.time.Instant.now(), expiry).toMillis()));
        Thread.sleep(1_100); // notAfter is inclusive, to the second
        assertThat(check(open))
            .startsWith(
                "UNAUTHENTICATED: the client certificate is no longer accepted: it fails the check"
                    + " against the mTLS client CA file");
      } finally {
        open.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  /** Mutual TLS with the broker CA file and CRL given, the files reread every 100 ms. */
  private static TlsSettings mtls(Pair node, Path brokerCaFile, Optional<Path> crl) {
    return new TlsSettings(
        Optional.of(node.cert()),
        Optional.of(node.key()),
        Duration.ofMillis(100),
        true,
        Optional.of(brokerCaFile),
        true,
        List.of(),
        false,
        Optional.empty(),
        crl,
        Optional.empty());
  }

  /** The node's gRPC TLS and broker interceptor in front of the health service. */
  private static Server server(TransportSecurity tls) throws java.io.IOException {
    return Grpc.newServerBuilderForPort(0, GrpcServer.credentials(tls))
        .addService(
            ServerInterceptors.intercept(
                new HealthStatusManager().getHealthService(),
                new BrokerCredentialInterceptor(
                    new SharedSecret(Optional.empty(), List.of()), Set.of(HEALTH), tls.brokers())))
        .build()
        .start();
  }

  /** Waits until a call on a new connection, with no session to resume, answers {@code code}. */
  private static void awaitFresh(Pair client, Pair serverCa, int port, String code)
      throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      SslContext fresh =
          GrpcSslContexts.configure(SslContextBuilder.forClient(), SslProvider.OPENSSL)
              .keyManager(client.cert().toFile(), client.key().toFile())
              .trustManager(serverCa.cert().toFile())
              .build();
      ManagedChannel channel =
          NettyChannelBuilder.forAddress("127.0.0.1", port)
              .overrideAuthority("localhost")
              .sslContext(fresh)
              .build();
      try {
        String outcome = check(channel);
        if (outcome.startsWith(code) || System.nanoTime() > end) {
          assertThat(outcome).startsWith(code);
          return;
        }
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      Thread.sleep(50);
    }
  }

  /** "OK", or the status code and the start of its description. */
  private static String check(ManagedChannel channel) {
    try {
      HealthGrpc.newBlockingStub(channel)
          .withDeadlineAfter(5, TimeUnit.SECONDS)
          .check(HealthCheckRequest.getDefaultInstance());
      return "OK";
    } catch (StatusRuntimeException e) {
      Status status = e.getStatus();
      return status.getCode() + ": " + status.getDescription();
    }
  }

  /** Waits (the files are reread every 100 ms) until a check answers as {@code expected} begins. */
  private static void awaitCheck(ManagedChannel channel, String expected) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String last = check(channel);
    while (!last.startsWith(expected) && System.nanoTime() < end) {
      Thread.sleep(50);
      last = check(channel);
    }
    assertThat(last).startsWith(expected);
  }
}

package dev.controlplane.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Certificates.Pair;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateRevokedException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransportSecurityTest {

  @TempDir Path dir;

  private TlsSettings settings(Pair files) {
    return settings(files, Optional.empty(), Optional.empty());
  }

  /** With a broker CA: mutual TLS, and the CA's revocation lists when {@code crl} is given. */
  private TlsSettings settings(Pair files, Optional<Path> brokerCa, Optional<Path> crl) {
    return new TlsSettings(
        Optional.of(files.cert()),
        Optional.of(files.key()),
        Duration.ofHours(1), // reloads are driven by the test
        brokerCa.isPresent(),
        brokerCa,
        true,
        List.of(),
        false,
        Optional.empty(),
        crl,
        Optional.empty());
  }

  /** Cluster TLS with {@code member}'s files, the cluster CA, and its revocation lists. */
  private static TlsSettings member(Pair member, Pair clusterCa, Path crl) {
    return new TlsSettings(
        Optional.of(member.cert()),
        Optional.of(member.key()),
        Duration.ofHours(1),
        false,
        Optional.empty(),
        true,
        List.of(),
        true,
        Optional.of(clusterCa.cert()),
        Optional.empty(),
        Optional.of(crl));
  }

  private static String served(TransportSecurity tls) {
    X509Certificate[] chain =
        tls.keyManager().getCertificateChain(tls.keyManager().chooseServerAlias("EC", null, null));
    return chain[0].getSubjectX500Principal().getName();
  }

  private Certificates certs;
  private Pair ca;
  private Pair files;

  /** The node's files hold certificate "first", signed by "ca". */
  @org.junit.jupiter.api.BeforeEach
  void firstIdentity() throws Exception {
    certs = new Certificates(dir);
    ca = certs.ca("ca");
    files = new Pair(dir.resolve("tls.crt"), dir.resolve("tls.key"));
    Certificates.install(certs.server(ca, "first"), files);
  }

  @Test
  void rotatedFilesReplaceTheIdentityAndTheLibertyKeystore() throws Exception {
    var keystore = new LibertyKeystore(dir.resolve("ks/tls.p12"), "pw".toCharArray());
    try (var tls = TransportSecurity.start(settings(files), Optional.of(keystore))) {
      assertEquals("CN=first", served(tls));
      assertEquals("CN=first", keystoreSubject(keystore.file()));

      Certificates.install(certs.server(ca, "second"), files);
      tls.reload(false);

      assertEquals("CN=second", served(tls));
      assertEquals("CN=second", keystoreSubject(keystore.file()));
    }
  }

  @Test
  void aRotationWithAMismatchedKeyKeepsThePreviousIdentity() throws Exception {
    try (var tls = TransportSecurity.start(settings(files), Optional.empty())) {
      Pair other = certs.server(ca, "other");
      Files.copy(other.cert(), files.cert(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      assertThrows(PemFiles.TlsFileException.class, () -> tls.reload(false));
      assertEquals("CN=first", served(tls));
    }
  }

  /** A renewal job that writes a stale file must not take TLS down on every listener. */
  @Test
  void aRotationToAnExpiredCertificateKeepsThePreviousIdentity() throws Exception {
    try (var tls = TransportSecurity.start(settings(files), Optional.empty())) {
      Certificates.install(certs.expiredServer(ca, "stale"), files);
      var e = assertThrows(PemFiles.TlsFileException.class, () -> tls.reload(false));
      assertEquals(true, e.getMessage().contains("expired"), e.getMessage());
      assertEquals("CN=first", served(tls));
    }
  }

  @Test
  void anUnusableFileAtStartNamesItsSetting() throws Exception {
    Pair broken = new Pair(files.cert(), dir.resolve("absent.key"));
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> TransportSecurity.open(settings(broken)));
    assertEquals(
        true, e.getMessage().startsWith("SERVICE_CONTROLPLANE_TLS_KEY_PATH: "), e.getMessage());
  }

  @Test
  void theSelfCheckTrustsOnlyTheCertificateTheNodeServesNow() throws Exception {
    try (var tls = TransportSecurity.start(settings(files), Optional.empty())) {
      var own = new OwnCertificate(tls.keyManager());
      X509Certificate first = PemFiles.certificates(files.cert())[0];
      own.checkServerTrusted(new X509Certificate[] {first}, "EC");
      Certificates.install(certs.server(ca, "second"), files);
      tls.reload(false);
      assertThrows(
          java.security.cert.CertificateException.class,
          () -> own.checkServerTrusted(new X509Certificate[] {first}, "EC"));
    }
  }

  @Test
  void aBrokerCertificateTheCrlListsIsRefusedOthersPassAndANewCrlAppliesOnReload()
      throws Exception {
    Pair brokerCa = certs.ca("brokers");
    Pair b1 = certs.client(brokerCa, "b1");
    Pair b2 = certs.client(brokerCa, "b2");
    Path crl = certs.crl(brokerCa, dir.resolve("brokers.crl"), b1);
    try (var tls =
        TransportSecurity.start(
            settings(files, Optional.of(brokerCa.cert()), Optional.of(crl)), Optional.empty())) {
      assertEquals("refused: revoked", handshake(tls, b1));
      assertEquals("accepted", handshake(tls, b2));

      certs.crl(brokerCa, crl, b2);
      tls.reload(false);
      assertEquals("accepted", handshake(tls, b1));
      assertEquals("refused: revoked", handshake(tls, b2));
    }
  }

  @Test
  void aCrlOfAnotherCaStopsTheStartNamingItsSettingAndIsNotTakenOnReload() throws Exception {
    Pair brokerCa = certs.ca("brokers");
    Pair stranger = certs.ca("stranger");
    Pair b1 = certs.client(brokerCa, "b1");
    Path wrong = certs.crl(stranger, dir.resolve("wrong.crl"), certs.client(stranger, "x"));
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TransportSecurity.open(
                    settings(files, Optional.of(brokerCa.cert()), Optional.of(wrong))));
    assertEquals(
        true,
        e.getMessage().startsWith("SERVICE_CONTROLPLANE_MTLS_CRL_PATH: ")
            && e.getMessage().contains("CN=stranger")
            && e.getMessage().contains("not a CA of SERVICE_CONTROLPLANE_MTLS_CA_CERT_PATH"),
        e.getMessage());

    Path crl = certs.crl(brokerCa, dir.resolve("brokers.crl"), b1);
    try (var tls =
        TransportSecurity.start(
            settings(files, Optional.of(brokerCa.cert()), Optional.of(crl)), Optional.empty())) {
      Files.copy(wrong, crl, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      assertThrows(PemFiles.TlsFileException.class, () -> tls.reload(false));
      assertEquals("refused: revoked", handshake(tls, b1), "the previous CRL stays in use");
    }
  }

  @Test
  void aClusterMemberTheCrlListsIsRefusedOnEitherEndAndANewCrlAppliesOnReload() throws Exception {
    Pair clusterCa = certs.ca("cluster");
    Pair m1 = certs.server(clusterCa, "m1");
    Pair m2 = certs.server(clusterCa, "m2");
    Pair m3 = certs.server(clusterCa, "m3");
    Path crl = certs.crl(clusterCa, dir.resolve("members.crl"), m3);
    try (var one = TransportSecurity.start(member(m1, clusterCa, crl), Optional.empty());
        var two = TransportSecurity.start(member(m2, clusterCa, crl), Optional.empty());
        var three = TransportSecurity.start(member(m3, clusterCa, crl), Optional.empty())) {
      assertEquals("accepted", memberHandshake(one, two));
      assertEquals("refused: revoked", memberHandshake(one, three), "m3 calls m1");
      assertEquals("refused: revoked", memberHandshake(three, one), "m1 calls m3");

      certs.crl(clusterCa, crl, m2);
      one.reload(false);
      two.reload(false);
      assertEquals("refused: revoked", memberHandshake(one, two));
      assertEquals("refused: revoked", memberHandshake(two, one));
    }
  }

  /**
   * A member that connected before its certificate was revoked cannot come back on a session it
   * resumes (which skips the certificate check): no cluster session is kept for resumption, so
   * every connection is a full handshake that the trust manager sees. The same listener and the
   * same caller each time, as members reconnect to each other's one port.
   */
  @Test
  void aRevokedMemberCannotRejoinOnASessionResumedFromBeforeTheRevocation() throws Exception {
    Pair clusterCa = certs.ca("cluster");
    Pair m1 = certs.server(clusterCa, "m1");
    Pair m2 = certs.server(clusterCa, "m2");
    Path crl = certs.crl(clusterCa, dir.resolve("members.crl"), certs.server(clusterCa, "m9"));
    try (var one = TransportSecurity.start(member(m1, clusterCa, crl), Optional.empty());
        var two = TransportSecurity.start(member(m2, clusterCa, crl), Optional.empty());
        var listening = listen(one.clusterContext().orElseThrow())) {
      SSLContext caller = two.clusterContext().orElseThrow();
      assertEquals("accepted", rejoin(listening, caller));
      assertEquals("accepted", rejoin(listening, caller), "resumed");

      certs.crl(clusterCa, crl, m2);
      one.reload(false);
      assertEquals("refused: revoked", rejoin(listening, caller));
    }
  }

  /**
   * Members keep their connections as long as both run: a member whose certificate is revoked loses
   * the ones it holds at the other end's next reload, whichever end opened them, while a member
   * still trusted keeps its own. Without that, a revoked member went on voting on a connection
   * opened before the revocation.
   */
  @Test
  void openConnectionsOfARevokedMemberAreClosedAtTheNextReloadOthersStay() throws Exception {
    Pair clusterCa = certs.ca("cluster");
    Pair m1 = certs.server(clusterCa, "m1");
    Pair m2 = certs.server(clusterCa, "m2");
    Pair m3 = certs.server(clusterCa, "m3");
    Path crl = certs.crl(clusterCa, dir.resolve("members.crl"), certs.server(clusterCa, "m9"));
    try (var one = TransportSecurity.start(member(m1, clusterCa, crl), Optional.empty());
        var two = TransportSecurity.start(member(m2, clusterCa, crl), Optional.empty());
        var three = TransportSecurity.start(member(m3, clusterCa, crl), Optional.empty());
        var oneListening = listen(one.clusterContext().orElseThrow());
        var threeListening = listen(three.clusterContext().orElseThrow());
        var twoToOne = connect(two, oneListening);
        var threeToOne = connect(three, oneListening);
        var oneToThree = connect(one, threeListening)) {
      certs.crl(clusterCa, crl, m3);
      one.reload(false);

      assertEquals("open", twoToOne.exchange(), "m2 is still trusted");
      assertEquals("closed", threeToOne.calling.readOrClosed(), "m3 called m1");
      assertEquals("closed", oneToThree.accepted.readOrClosed(), "m1 called m3");
    }
  }

  /** Both ends of a connection between two members, its handshake done on both. */
  private record Connection(Readable calling, Readable accepted) implements AutoCloseable {
    /** A byte each way: "open" when both arrived, or what each end read instead. */
    String exchange() throws IOException {
      calling.socket.getOutputStream().write(7);
      calling.socket.getOutputStream().flush();
      String there = accepted.readOrClosed();
      accepted.socket.getOutputStream().write(7);
      accepted.socket.getOutputStream().flush();
      String back = calling.readOrClosed();
      return there.equals("7") && back.equals("7") ? "open" : there + " / " + back;
    }

    @Override
    public void close() throws IOException {
      calling.socket.close();
      accepted.socket.close();
    }
  }

  private record Readable(SSLSocket socket) {
    /** The next byte, or "closed" when the other end closed the connection within 10 s. */
    String readOrClosed() {
      try {
        socket.setSoTimeout(10_000);
        int b = socket.getInputStream().read();
        return b < 0 ? "closed" : Integer.toString(b);
      } catch (java.net.SocketTimeoutException e) {
        return "still open after 10 s";
      } catch (IOException e) {
        return "closed";
      } finally {
        // Without a timeout, closing waits only a moment for the other end's close_notify.
        try {
          socket.setSoTimeout(0);
        } catch (IOException closed) {
          // nothing to wait for
        }
      }
    }
  }

  /** {@code caller}'s cluster context connects to {@code listening}, as JGroups does. */
  private static Connection connect(TransportSecurity caller, SSLServerSocket listening)
      throws Exception {
    var accepting =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                var s = (SSLSocket) listening.accept();
                s.startHandshake();
                s.getOutputStream().write(1);
                s.getOutputStream().flush();
                return s;
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    var calling =
        (SSLSocket) caller.clusterContext().orElseThrow().getSocketFactory().createSocket();
    calling.connect(listening.getLocalSocketAddress());
    calling.startHandshake();
    assertEquals(1, calling.getInputStream().read(), "accepted");
    return new Connection(
        new Readable(calling),
        new Readable(accepting.get(10, java.util.concurrent.TimeUnit.SECONDS)));
  }

  /** {@code caller} connects to {@code listening} as JGroups does: "accepted", or why not. */
  private static String rejoin(SSLServerSocket listening, SSLContext caller) throws Exception {
    var accepted = acceptOne(listening);
    String called;
    try (var s = (SSLSocket) caller.getSocketFactory().createSocket()) {
      s.connect(listening.getLocalSocketAddress());
      s.startHandshake();
      called = s.getInputStream().read() == 1 ? "accepted" : "refused: closed";
    } catch (IOException e) {
      called = outcome(e);
    }
    String answered = accepted.get(10, java.util.concurrent.TimeUnit.SECONDS);
    return answered.equals("accepted") && called.equals("accepted") ? "accepted" : answered;
  }

  /**
   * A handshake between two members' cluster contexts, {@code caller} connecting to {@code
   * listener}: "accepted", or "refused: revoked" when either end found the other's certificate
   * revoked.
   */
  private static String memberHandshake(TransportSecurity listener, TransportSecurity caller)
      throws Exception {
    try (var listening = listen(listener.clusterContext().orElseThrow())) {
      var accepted = acceptOne(listening);
      String called;
      try (var s =
          (SSLSocket)
              caller
                  .clusterContext()
                  .orElseThrow()
                  .getSocketFactory()
                  .createSocket(
                      java.net.InetAddress.getLoopbackAddress(), listening.getLocalPort())) {
        s.startHandshake();
        called = s.getInputStream().read() == 1 ? "accepted" : "refused: closed";
      } catch (IOException e) {
        called = outcome(e);
      }
      String answered = accepted.get(10, java.util.concurrent.TimeUnit.SECONDS);
      return answered.equals("refused: revoked") || called.equals("refused: revoked")
          ? "refused: revoked"
          : answered.equals("accepted") && called.equals("accepted")
              ? "accepted"
              : "refused: " + answered + " / " + called;
    }
  }

  /** A TLS listener on 127.0.0.1 that requires a client certificate. */
  private static SSLServerSocket listen(SSLContext context) throws IOException {
    var listening =
        (SSLServerSocket)
            context
                .getServerSocketFactory()
                .createServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
    listening.setNeedClientAuth(true);
    return listening;
  }

  /**
   * Accepts one connection: "accepted" once its handshake is done (and a byte sent, so that the
   * caller sees the server's verdict), or why not.
   */
  private static java.util.concurrent.CompletableFuture<String> acceptOne(
      SSLServerSocket listening) {
    return java.util.concurrent.CompletableFuture.supplyAsync(
        () -> {
          try (var s = (SSLSocket) listening.accept()) {
            s.startHandshake();
            s.getOutputStream().write(1);
            s.getOutputStream().flush();
            return "accepted";
          } catch (IOException e) {
            return outcome(e);
          }
        });
  }

  private static String outcome(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CertificateRevokedException) {
        return "refused: revoked";
      }
    }
    return "refused: " + e;
  }

  /**
   * A real TLS handshake on 127.0.0.1 between a server with the node's key and broker trust
   * managers, requiring a client certificate, and a client presenting {@code client}: "accepted",
   * or "refused: revoked" when the server's trust manager found the certificate revoked.
   */
  private String handshake(TransportSecurity tls, Pair client) throws Exception {
    SSLContext server = SSLContext.getInstance("TLS");
    server.init(
        new KeyManager[] {tls.keyManager()},
        new TrustManager[] {tls.trustManager().orElseThrow()},
        null);
    var clientKeys = KeyManagerFactory.getInstance("PKIX");
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    var identity = PemFiles.identity(client.cert(), client.key());
    store.setKeyEntry("c", identity.key(), "pw".toCharArray(), identity.chain());
    clientKeys.init(store, "pw".toCharArray());
    SSLContext caller = SSLContext.getInstance("TLS");
    caller.init(clientKeys.getKeyManagers(), Certificates.trustManagers(ca.cert()), null);
    try (var listening = listen(server)) {
      var accepted = acceptOne(listening);
      try (var s =
          (SSLSocket)
              caller
                  .getSocketFactory()
                  .createSocket(listening.getInetAddress(), listening.getLocalPort())) {
        s.startHandshake();
        s.getInputStream().read(); // TLS 1.3: the server's verdict on the client arrives after
      } catch (IOException expectedWhenRefused) {
        // the server's alert; its own outcome says why
      }
      return accepted.get(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  private static String keystoreSubject(Path file) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, "pw".toCharArray());
    }
    var cert = (X509Certificate) store.getCertificate(LibertyKeystore.ALIAS);
    return cert.getSubjectX500Principal().getName();
  }
}

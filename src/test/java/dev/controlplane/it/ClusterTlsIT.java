package dev.controlplane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Certificates.Pair;
import dev.controlplane.it.support.TestCluster;
import io.grpc.util.AdvancedTlsX509KeyManager;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SERVICE_CONTROLPLANE_CLUSTER_TLS: three nodes whose JGroups connections are mutual TLS elect a
 * leader, and a node's Raft port completes a TLS handshake only for a client presenting a
 * certificate of the cluster CA that the cluster CA's revocation list
 * (SERVICE_CONTROLPLANE_CLUSTER_CRL_PATH) does not name.
 */
class ClusterTlsIT {

  @TempDir static Path dir;

  @Test
  void membersTalkMutualTlsAndElectALeader() throws Exception {
    var certs = new Certificates(dir);
    Pair clusterCa = certs.ca("cluster-ca");
    Pair node = certs.server(clusterCa, "controlplane-node");
    Pair peer = certs.client(clusterCa, "cp-peer");
    Pair revoked = certs.client(clusterCa, "cp-revoked");
    Path crl = certs.crl(clusterCa, dir.resolve("members.crl"), revoked);
    Map<String, String> env =
        Map.of(
            "SERVICE_CONTROLPLANE_TLS_CERT_PATH", node.cert().toString(),
            "SERVICE_CONTROLPLANE_TLS_KEY_PATH", node.key().toString(),
            "SERVICE_CONTROLPLANE_CLUSTER_TLS", "true",
            "SERVICE_CONTROLPLANE_CLUSTER_CA_CERT_PATH", clusterCa.cert().toString(),
            "SERVICE_CONTROLPLANE_CLUSTER_CRL_PATH", crl.toString());
    try (TestCluster cluster = TestCluster.start("cluster-tls", 3, env)) {
      var leader = cluster.awaitLeader(Duration.ofSeconds(60));
      String[] raft = raftAddress(leader);

      assertEquals("TLSv1.3", handshake(raft, context(clusterCa, peer)));
      assertThrows(IOException.class, () -> handshake(raft, context(clusterCa, null)));
      Pair rogue = certs.client(certs.ca("rogue-ca"), "cp-peer");
      assertThrows(IOException.class, () -> handshake(raft, context(clusterCa, rogue)));
      assertThrows(IOException.class, () -> handshake(raft, context(clusterCa, revoked)));
    }
  }

  private static String[] raftAddress(TestCluster.Node node) {
    String members = node.setting("SERVICE_CONTROLPLANE_CLUSTER_MEMBERS");
    for (String member : members.split(",")) {
      if (member.startsWith(node.id + "=")) {
        return member.substring(node.id.length() + 1).split(":");
      }
    }
    throw new IllegalStateException(node.id + " not in " + members);
  }

  /**
   * Trusts the cluster CA; presents {@code client} when given, whatever CAs the server asks for (a
   * stock JDK client would send no certificate the server did not ask for, and the test wants the
   * server itself to judge the chain).
   */
  private static SSLContext context(Pair ca, Pair client) throws Exception {
    KeyManager[] keys = null;
    if (client != null) {
      var insisting = new AdvancedTlsX509KeyManager();
      insisting.updateIdentityCredentials(client.cert().toFile(), client.key().toFile());
      keys = new KeyManager[] {insisting};
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys, Certificates.trustManagers(ca.cert()), null);
    return context;
  }

  /**
   * The negotiated protocol once the server has accepted the client. In TLS 1.3 the client's side
   * of the handshake ends before the server has checked the client's certificate, so the test then
   * reads: a refusal arrives as a TLS alert (an SSLException); an accepted connection stays silent
   * (JGroups waits for the peer's address) until JGroups closes it for saying nothing (end of
   * stream) or the read times out.
   */
  private static String handshake(String[] address, SSLContext context) throws IOException {
    try (SSLSocket socket =
        (SSLSocket)
            context.getSocketFactory().createSocket(address[0], Integer.parseInt(address[1]))) {
      socket.setSoTimeout(3000);
      socket.startHandshake();
      try {
        socket.getInputStream().read(); // -1: accepted, then closed for silence
      } catch (java.net.SocketTimeoutException acceptedAndWaiting) {
        // the server kept the connection: accepted
      }
      return socket.getSession().getProtocol();
    }
  }
}

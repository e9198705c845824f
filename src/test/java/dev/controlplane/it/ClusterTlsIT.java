package dev.controlplane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.controlplane.it.support.Certificates;
import dev.controlplane.it.support.Certificates.Pair;
import dev.controlplane.it.support.TestCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SERVICE_CONTROLPLANE_CLUSTER_TLS: three nodes whose JGroups connections are mutual TLS elect a
 * leader, and a node's Raft port completes a TLS handshake only for a client presenting a
 * certificate of the cluster CA.
 */
class ClusterTlsIT {

  @TempDir static Path dir;

  @Test
  void membersTalkMutualTlsAndElectALeader() throws Exception {
    var certs = new Certificates(dir);
    Pair clusterCa = certs.ca("cluster-ca");
    Pair node = certs.server(clusterCa, "controlplane-node");
    Pair peer = certs.client(clusterCa, "cp-peer");
    Map<String, String> env =
        Map.of(
            "SERVICE_CONTROLPLANE_TLS_CERT_PATH", node.cert().toString(),
            "SERVICE_CONTROLPLANE_TLS_KEY_PATH", node.key().toString(),
            "SERVICE_CONTROLPLANE_CLUSTER_TLS", "true",
            "SERVICE_CONTROLPLANE_CLUSTER_CA_CERT_PATH", clusterCa.cert().toString());
    try (TestCluster cluster = TestCluster.start("cluster-tls", 3, env)) {
      var leader = cluster.awaitLeader(Duration.ofSeconds(60));
      String[] raft = raftAddress(leader);

      assertEquals("TLSv1.3", handshake(raft, context(clusterCa, peer)));
      assertThrows(IOException.class, () -> handshake(raft, context(clusterCa, null)));
      Pair rogue = certs.client(certs.ca("rogue-ca"), "cp-peer");
      assertThrows(IOException.class, () -> handshake(raft, context(clusterCa, rogue)));
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

  /** Trusts the cluster CA; presents {@code client} when given. */
  private static SSLContext context(Pair ca, Pair client) throws Exception {
    SSLContext trusting = Certificates.trusting(ca.cert());
    if (client == null) {
      return trusting;
    }
    KeyStore store = Certificates.keyStore(client, "pw".toCharArray());
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "pw".toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), Certificates.trustManagers(ca.cert()), null);
    return context;
  }

  /**
   * The negotiated protocol once the server has accepted the client. In TLS 1.3 the client's side
   * of the handshake ends before the server has checked the client's certificate, so the test then
   * reads: a refusal arrives as an alert (an exception), an accepted connection stays silent
   * (JGroups waits for the peer to speak first) until the read times out.
   */
  private static String handshake(String[] address, SSLContext context) throws IOException {
    try (SSLSocket socket =
        (SSLSocket)
            context.getSocketFactory().createSocket(address[0], Integer.parseInt(address[1]))) {
      socket.setSoTimeout(3000);
      socket.startHandshake();
      try {
        if (socket.getInputStream().read() < 0) {
          throw new IOException("closed by the server");
        }
      } catch (java.net.SocketTimeoutException acceptedAndWaiting) {
        // the server kept the connection: accepted
      }
      return socket.getSession().getProtocol();
    }
  }
}

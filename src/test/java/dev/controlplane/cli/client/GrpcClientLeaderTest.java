package dev.controlplane.cli.client;

import static dev.controlplane.cli.client.TestClients.create;
import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.cli.config.Target;
import dev.controlplane.it.support.Certificates;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write refused by a follower is sent once to the leader it names in the {@code x-leader}
 * trailer, which then serves the rest of the run; the trailer is a bare {@code host:port}, reached
 * with the scheme of the node that named it. A trailer that names no usable address is not
 * followed.
 */
class GrpcClientLeaderTest {

  @Test
  void aFollowersRefusalIsRetriedOnTheLeaderWhichThenServesTheRestOfTheRun() throws Exception {
    ScriptedAdmin leaderAdmin = ScriptedAdmin.answering("leader");
    try (LoopbackNode leader = LoopbackNode.plaintext(leaderAdmin)) {
      ScriptedAdmin followerAdmin =
          ScriptedAdmin.failing(LoopbackNode.notLeader(leader.hostPort(), "cp2"));
      try (LoopbackNode follower = LoopbackNode.plaintext(followerAdmin);
          GrpcClient client = TestClients.plaintext(follower.hostPort())) {
        assertThat(create(client)).isEqualTo("leader");
        assertThat(create(client)).isEqualTo("leader");
        assertThat(followerAdmin.calls).hasValue(1);
        assertThat(leaderAdmin.calls).hasValue(2);
      }
    }
  }

  @Test
  void aLeaderKnownOnlyByItsNodeIdIsNotFollowedButTheNextConfiguredNodeIsAsked() throws Exception {
    ScriptedAdmin followerAdmin = ScriptedAdmin.failing(LoopbackNode.notLeader("cp2", "cp2"));
    ScriptedAdmin nextAdmin = ScriptedAdmin.answering("next");
    try (LoopbackNode follower = LoopbackNode.plaintext(followerAdmin);
        LoopbackNode next = LoopbackNode.plaintext(nextAdmin);
        GrpcClient client = TestClients.plaintext(follower.hostPort(), next.hostPort())) {
      assertThat(create(client)).isEqualTo("next");
      assertThat(followerAdmin.calls).hasValue(1);
    }
  }

  @Test
  void theLeaderOfATlsClusterIsReachedOverTlsWithAndWithoutAClientCertificate(@TempDir Path dir)
      throws Exception {
    Certificates certificates = new Certificates(dir);
    Certificates.Pair ca = certificates.ca("ca");
    Certificates.Pair serverCert = certificates.server(ca, "node");
    Certificates.Pair brokerCert = certificates.client(ca, "broker");
    ScriptedAdmin leaderAdmin = ScriptedAdmin.answering("leader");
    try (LoopbackNode leader = LoopbackNode.tls(serverCert, leaderAdmin);
        LoopbackNode follower =
            LoopbackNode.tls(
                serverCert,
                ScriptedAdmin.failing(LoopbackNode.notLeader(leader.hostPort(), "cp2")))) {
      String configured = "https://" + follower.hostPort();
      try (GrpcClient withCertificate =
              TestClients.client(
                  Map.of(),
                  Optional.of(ca.cert()),
                  Optional.of(new Target.ClientCertificate(brokerCert.cert(), brokerCert.key())),
                  configured);
          GrpcClient withoutCertificate =
              TestClients.client(Map.of(), Optional.of(ca.cert()), Optional.empty(), configured)) {
        assertThat(create(withCertificate)).isEqualTo("leader");
        assertThat(create(withoutCertificate)).isEqualTo("leader");
      }
    }
  }
}

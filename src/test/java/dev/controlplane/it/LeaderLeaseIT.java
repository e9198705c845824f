package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.cluster.TermStore;
import dev.controlplane.cluster.TermStore.Claim;
import dev.controlplane.it.support.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The leader lease in {@code cluster_state}, against a real PostgreSQL: a node that wins a Raft
 * election claims the fencing term only once its predecessor released its lease or the lease ran
 * out, so two nodes never both count themselves leader.
 */
class LeaderLeaseIT {

  private static final Duration STALE_AFTER = Duration.ofSeconds(15);
  private static final Duration LONG_LEASE = Duration.ofSeconds(5);

  private TermStore terms;

  @BeforeEach
  void freshSchema() throws Exception {
    String url = TestDatabase.url(TestDatabase.name() + "_lease");
    TestDatabase.resetAndMigrate(url);
    terms = new TermStore(TestDatabase.dataSource(url));
  }

  private Claim claim(String node, long raftTerm, Duration lease) throws Exception {
    return terms.claim(node, raftTerm, "http://" + node, node + ":1", false, lease, STALE_AFTER);
  }

  @Test
  void aSuccessorWaitsForTheLeaseOfTheLeaderItReplacesAndClaimsAsSoonAsItIsReleased()
      throws Exception {
    Claim first = claim("cp1", 1, LONG_LEASE);
    assertThat(first.won()).isTrue();

    Claim refused = claim("cp2", 2, LONG_LEASE);
    assertThat(refused.won()).as("a claim while cp1's lease runs").isFalse();
    assertThat(refused.holder()).isEqualTo("cp1");
    assertThat(refused.holderRaftTerm()).isEqualTo(1);
    assertThat(refused.leaseLeft()).isPositive().isLessThanOrEqualTo(LONG_LEASE);

    assertThat(terms.release(first.term())).isTrue();
    Claim second = claim("cp2", 2, LONG_LEASE);
    assertThat(second.won()).as("a claim right after the release").isTrue();
    assertThat(second.term()).isEqualTo(first.term() + 1);
    assertThat(terms.renew(first.term())).as("cp1 renews a superseded term").isFalse();
    assertThat(terms.read().nodeId()).isEqualTo("cp2");
  }

  @Test
  void aLeaseThatRunsOutLetsTheSuccessorClaimWithoutARelease() throws Exception {
    Duration lease = Duration.ofMillis(300);
    Claim first = claim("cp1", 1, lease);
    assertThat(claim("cp2", 2, lease).won()).isFalse();
    Thread.sleep(lease.toMillis() + 100);
    Claim second = claim("cp2", 2, lease);
    assertThat(second.won()).as("a claim after cp1's lease ran out").isTrue();
    assertThat(second.term()).isEqualTo(first.term() + 1);
  }

  @Test
  void aRenewalExtendsTheLeaseFromTheMomentItIsMade() throws Exception {
    Claim first = claim("cp1", 1, LONG_LEASE);
    Thread.sleep(1_000);
    assertThat(terms.renew(first.term())).isTrue();
    // Without the renewal at most 4 s would be left.
    assertThat(claim("cp2", 2, LONG_LEASE).leaseLeft()).isGreaterThan(Duration.ofMillis(4_200));
  }

  @Test
  void aRenewalThatArrivesAfterTheReleaseDoesNotTakeTheLeaseBack() throws Exception {
    Claim first = claim("cp1", 1, LONG_LEASE);
    assertThat(terms.release(first.term())).isTrue();
    assertThat(terms.renew(first.term())).as("a renewal after the release").isFalse();
    assertThat(claim("cp2", 2, LONG_LEASE).won()).as("the successor's claim").isTrue();
  }

  @Test
  void aLeaderThatSteppedDownMayClaimAgainWithoutWaitingForItsOwnLease() throws Exception {
    Claim first = claim("cp1", 1, LONG_LEASE);
    Claim again = claim("cp1", 1, LONG_LEASE);
    assertThat(again.won()).isTrue();
    assertThat(again.term()).isEqualTo(first.term() + 1);
  }

  @Test
  void aClaimFromAnOlderRaftTermWaitsEvenWhenTheLeaseRanOut() throws Exception {
    Duration lease = Duration.ofMillis(100);
    claim("cp2", 5, lease);
    Thread.sleep(lease.toMillis() + 100);
    Claim refused = claim("cp1", 4, lease);
    assertThat(refused.won()).as("a winner of Raft term 4 after the leader of term 5").isFalse();
    assertThat(refused.holderRaftTerm()).isEqualTo(5);
    assertThat(refused.leaseLeft()).isZero();
  }
}

package dev.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.ExtendedUUID;
import org.junit.jupiter.api.Test;

class DatabaseCensusTest {

  private static final UUID CLUSTERS = UUID.randomUUID();
  private static final UUID MISTYPED = UUID.randomUUID();

  private static Address on(String name, UUID database) {
    return ExtendedUUID.randomUUID(name)
        .put(org.jgroups.protocols.raft.RAFT.raft_id_key, org.jgroups.util.Util.stringToBytes(name))
        .put(DatabaseCensus.KEY, DatabaseCensus.entry(database));
  }

  private static View view(Address... members) {
    return View.create(members[0], 1, members);
  }

  @Test
  void theDatabaseOfAMajorityOfTheMembersIsTheClustersAndOnlyItsNodesAreElectable() {
    Address a = on("a", CLUSTERS);
    Address b = on("b", CLUSTERS);
    Address c = on("c", MISTYPED);
    DatabaseCensus census = DatabaseCensus.of(view(c, a, b), 2);

    assertThat(census.clusterDatabase()).contains(CLUSTERS);
    assertThat(census.electable()).containsExactlyInAnyOrder(a, b);
    assertThat(census.outvoting(MISTYPED)).contains(CLUSTERS);
    assertThat(census.outvoting(CLUSTERS)).isEmpty();
    assertThat(census.onOtherDatabase(CLUSTERS)).containsExactly("c");
    assertThat(census.onOtherDatabase(MISTYPED)).containsExactlyInAnyOrder("a", "b");
    assertThat(census.on(CLUSTERS)).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void whileNoDatabaseHasAMajorityNobodyIsElectableAndNobodyOutvoted() {
    Address a = on("a", CLUSTERS);
    Address c = on("c", MISTYPED);
    DatabaseCensus census = DatabaseCensus.of(view(a, c), 2);

    assertThat(census.clusterDatabase()).isEmpty();
    assertThat(census.electable()).isEmpty();
    assertThat(census.outvoting(CLUSTERS)).isEmpty();
    assertThat(census.outvoting(MISTYPED)).isEmpty();
    assertThat(census.onOtherDatabase(CLUSTERS)).containsExactly("c");
  }

  @Test
  void theMajorityCountsTheConfiguredMembersNotTheView() {
    // Five members configured, three in the view, all on one database: a majority of five.
    Address a = on("a", CLUSTERS);
    Address b = on("b", CLUSTERS);
    Address c = on("c", CLUSTERS);
    assertThat(DatabaseCensus.of(view(a, b, c), 3).electable()).containsExactlyInAnyOrder(a, b, c);
    // Two of them are not.
    assertThat(DatabaseCensus.of(view(a, b), 3).electable()).isEmpty();
  }

  @Test
  void aMemberWithoutADatabaseIdCountsForNoDatabase() {
    Address a = on("a", CLUSTERS);
    Address unknown = ExtendedUUID.randomUUID("x");
    Address plain = org.jgroups.util.UUID.randomUUID();
    DatabaseCensus census = DatabaseCensus.of(view(a, unknown, plain), 2);

    assertThat(census.clusterDatabase()).isEmpty();
    assertThat(census.electable()).isEmpty();
    assertThat(census.onOtherDatabase(CLUSTERS)).isEmpty();
  }

  @Test
  void aDatabaseIdSurvivesTheAddressEntry() {
    for (UUID id :
        List.of(new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 1), UUID.randomUUID())) {
      Address member = on("m", id);
      assertThat(DatabaseCensus.of(view(member), 1).clusterDatabase()).contains(id);
    }
  }
}

package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.LeaderMonitor;
import dev.controlplane.it.support.LostWrites;
import dev.controlplane.it.support.Partition;
import dev.controlplane.it.support.PgPair;
import dev.controlplane.it.support.ResumingWatch;
import dev.controlplane.it.support.Snapshots;
import dev.controlplane.it.support.TestCluster;
import dev.controlplane.it.support.TestCluster.Node;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.it.support.WriteLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The production deployment under the faults it must survive: three real nodes (runnable JARs)
 * against a PostgreSQL primary with a synchronous standby (two clusters of their own), a client
 * writing all the time, and two watchers per node that resume on another node whenever their stream
 * ends. Each round injects one fault, repairs it, and then checks: no acknowledged write lost;
 * every watcher's versions strictly increasing without gaps and equal to the log; the log's fencing
 * terms never decrease (no write by a deposed leader after its successor's term began); every node
 * serving the same snapshot at the last acknowledged version; one leader named by every node and
 * every node ready without a restart; and, over the whole run, never two nodes reporting role
 * leader at the same moment (the leader lease: a successor claims only after its predecessor
 * released its lease or the lease ran out). {@code -Dit.fault.passes=N} repeats the plan.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterFaultIT {

  private static final Duration FAILURE_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration SETTLE = Duration.ofSeconds(90);
  private static final int PASSES = Integer.getInteger("it.fault.passes", 1);
  private static final String PREFIX = "fault";

  private PgPair db;
  private TestCluster cluster;
  private WriteLoad load;
  private LeaderMonitor monitor;
  private final List<ResumingWatch> watches = new ArrayList<>();
  private final Map<String, List<Long>> figures = new LinkedHashMap<>();
  private long from;

  enum Fault {
    KILL_LEADER,
    KILL_FOLLOWER,
    FREEZE_LEADER,
    PARTITION_LEADER,
    LOSE_QUORUM,
    RESTART_DATABASE,
    FAIL_OVER_DATABASE
  }

  @BeforeAll
  void start() throws Exception {
    db = PgPair.create(TestDatabase.name() + "_fault");
    cluster =
        TestCluster.start(
            "fault",
            3,
            Map.of(
                "SERVICE_CONTROLPLANE_RAFT_FAILURE_TIMEOUT",
                FAILURE_TIMEOUT.toMillis() + "ms",
                // Every version stays in the log, so watchers can be compared with it.
                "SERVICE_CONTROLPLANE_RETENTION_MIN_VERSIONS",
                "100000000"),
            db.serviceUrl());
    cluster.awaitLeader(cluster.nodes(), SETTLE);
    from = TestDatabase.queryLong(db.primaryUrl(), "SELECT metadata_version FROM cluster_state");
    for (int i = 0; i < 6; i++) {
      watches.add(new ResumingWatch(cluster, i % 3, from, "w" + i));
    }
    monitor = new LeaderMonitor(cluster);
    load = new WriteLoad(cluster, PREFIX).start();
    load.awaitMoreAcks(20, SETTLE);
  }

  @AfterAll
  void stop() throws Exception {
    if (load != null) {
      load.close();
    }
    for (ResumingWatch w : watches) {
      w.close();
    }
    if (monitor != null) {
      monitor.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (db != null) {
      db.close();
    }
  }

  @Test
  void everyFaultLosesNoWriteKeepsWatchesGaplessAndEndsWithOneLeaderKnownByAll() throws Exception {
    int round = 0;
    for (int pass = 0; pass < PASSES; pass++) {
      for (Fault fault : Fault.values()) {
        round++;
        long started = System.nanoTime();
        long recovery = inject(fault);
        load.awaitMoreAcks(5, SETTLE);
        long outage = load.longestGapMillis(started, System.nanoTime());
        figure(fault + " first write acknowledged after the fault, ms", recovery);
        figure(fault + " longest wait between two acknowledged writes, ms", outage);
        assertInvariants(round + " " + fault);
        System.out.printf(
            "round %d %s: first write acknowledged %d ms after the fault; writes paused at most"
                + " %d ms%n",
            round, fault, recovery, outage);
      }
    }
    load.close();
    assertNeverTwoLeadersAtOnce();
    System.out.println("fault rounds: " + round + ", acknowledged writes: " + load.acks().size());
    figures.forEach((name, values) -> System.out.println(name + ": " + values));
    for (ResumingWatch w : watches) {
      System.out.println("watch resumed " + (w.sessions() - 1) + " times");
    }
  }

  /**
   * Injects and repairs one fault; returns the time from the fault (for the database, from the
   * moment it is back: restarted, or the standby promoted) to the first write acknowledged after
   * it.
   */
  private long inject(Fault fault) throws Exception {
    Node leader = cluster.awaitLeader(cluster.nodes(), SETTLE);
    Node follower = cluster.others(leader).get(0);
    load.awaitMoreAcks(10, SETTLE);
    long t0 = System.nanoTime();
    switch (fault) {
      case KILL_LEADER -> {
        leader.kill();
        long recovery = ackedAfter(t0, leader.id);
        rejoin(leader);
        return recovery;
      }
      case KILL_FOLLOWER -> {
        follower.kill();
        long recovery = ackedAfter(t0, "");
        rejoin(follower);
        return recovery;
      }
      case FREEZE_LEADER -> {
        leader.freeze();
        try {
          return ackedAfter(t0, leader.id);
        } finally {
          leader.thaw();
        }
      }
      case PARTITION_LEADER -> {
        long recovery;
        try (Partition cut = Partition.isolate(leader.clusterAddress())) {
          recovery = ackedAfter(t0, leader.id);
          Thread.sleep(2_000);
        }
        return recovery;
      }
      case LOSE_QUORUM -> {
        return loseQuorum(leader);
      }
      case RESTART_DATABASE -> {
        db.restartPrimary();
        return ackedAfter(System.nanoTime(), "");
      }
      case FAIL_OVER_DATABASE -> {
        db.failOver();
        long recovery = ackedAfter(System.nanoTime(), "");
        db.attachStandby();
        return recovery;
      }
    }
    throw new IllegalArgumentException(fault.toString());
  }

  /**
   * Cuts both followers off, so no node has a majority: no write may be acknowledged once the cut
   * is noticed. Returns the time from the heal to the first acknowledged write (target: 5 s).
   */
  private long loseQuorum(Node leader) throws Exception {
    List<String> followers = cluster.others(leader).stream().map(Node::clusterAddress).toList();
    try (Partition cut = Partition.isolate(followers.toArray(String[]::new))) {
      Thread.sleep(FAILURE_TIMEOUT.toMillis() * 2);
      int before = load.acks().size();
      Thread.sleep(3_000);
      assertThat(load.acks().size()).as("writes acknowledged without a quorum").isEqualTo(before);
    }
    long healed = System.nanoTime();
    return ackedAfter(healed, "");
  }

  private void rejoin(Node node) throws Exception {
    long started = System.nanoTime();
    node.start().awaitReady(SETTLE);
    cluster.awaitLeader(cluster.nodes(), SETTLE);
    figure("rejoin (start -> ready, leader agreed) ms", millisSince(started));
  }

  private long ackedAfter(long nanos, String notBy) throws InterruptedException {
    return (load.awaitAckAfter(nanos, notBy, SETTLE).atNanos() - nanos) / 1_000_000;
  }

  private void assertInvariants(String round) throws Exception {
    Node leader = cluster.awaitLeader(cluster.nodes(), SETTLE);
    for (Node node : cluster.nodes()) {
      assertThat(node.readiness().orElseThrow().path("leader").asText())
          .as("%s: %s names the leader", round, node.id)
          .isEqualTo(leader.id);
      dev.controlplane.it.support.Http.awaitStatus(
          () -> node.http().get("/health/ready").status(), 200, SETTLE);
    }
    load.awaitMoreAcks(10, SETTLE);
    List<WriteLoad.Ack> acks = load.acks();
    long last = acks.get(acks.size() - 1).version();
    assertThat(LostWrites.find(db.primaryUrl(), PREFIX, acks))
        .as("%s: acknowledged writes lost", round)
        .isEmpty();
    for (ResumingWatch w : watches) {
      assertThat(w.awaitVersion(last, SETTLE)).as("%s: a watcher reaches %d", round, last).isTrue();
    }
    // Read after the watchers caught up; writes go on, so only versions up to its head compare.
    Map<Long, TestDatabase.LogRow> log = new LinkedHashMap<>();
    TestDatabase.logRows(db.primaryUrl(), from).forEach(r -> log.put(r.version(), r));
    long logHead = log.keySet().stream().mapToLong(Long::longValue).max().orElse(from);
    for (ResumingWatch w : watches) {
      assertThat(w.gaps(from)).as("%s: watch versions", round).isEmpty();
      for (ResumingWatch.Seen s : w.seen()) {
        if (s.version() > logHead) {
          break;
        }
        TestDatabase.LogRow row = log.get(s.version());
        assertThat(row).as("%s: log row of version %d", round, s.version()).isNotNull();
        assertThat(row.kind()).as("%s: kind at %d", round, s.version()).isEqualTo(s.kind());
        if (s.kind().equals("Tenant")) {
          assertThat(row.key()).as("%s: key at %d", round, s.version()).isEqualTo(s.key());
        }
      }
    }
    assertNodesAgreeAt(last, round);
    assertThat(
            TestDatabase.queryLong(
                db.primaryUrl(),
                "SELECT count(*) FROM (SELECT term, lag(term) OVER (ORDER BY version) AS previous"
                    + " FROM metadata_updates) t WHERE term < previous"))
        .as("%s: log entries written with an older term after a newer one", round)
        .isZero();
    assertThat(
            TestDatabase.queryLong(
                db.primaryUrl(),
                "SELECT count(*) FROM audit_records WHERE operation = 'cluster.new_history'"))
        .as("%s: new histories, though the database lost nothing (a synchronous standby)", round)
        .isZero();
  }

  /**
   * Every node serves the same snapshot at {@code version}, whether its image lived through the
   * fault, was loaded again after a restart, or was built by a new leader.
   */
  private void assertNodesAgreeAt(long version, String round) throws Exception {
    Snapshots.Snapshot first = null;
    String firstNode = null;
    for (Node node : cluster.nodes()) {
      Snapshots.Snapshot snapshot = Snapshots.takeOnceCaughtUp(node, version, SETTLE);
      assertThat(snapshot.version())
          .as("%s: %s's snapshot version", round, node.id)
          .isEqualTo(version);
      if (first == null) {
        first = snapshot;
        firstNode = node.id;
      } else {
        Snapshots.assertSameMetadata(
            snapshot.metadata(),
            first.metadata(),
            round + ": " + node.id + " against " + firstNode + " at " + version);
      }
    }
  }

  private void assertNeverTwoLeadersAtOnce() {
    List<LeaderMonitor.Overlap> overlaps = monitor.overlaps();
    for (LeaderMonitor.Overlap o : overlaps) {
      System.out.printf(
          "two leaders (%s, %s) for %d ms%n",
          o.first(), o.second(), (o.toNanos() - o.fromNanos()) / 1_000_000);
    }
    assertThat(overlaps).as("moments at which two nodes both reported role leader").isEmpty();
  }

  private void figure(String name, long value) {
    figures.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}

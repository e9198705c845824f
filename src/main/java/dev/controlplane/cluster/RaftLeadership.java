package dev.controlplane.cluster;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jgroups.Address;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.raft.RaftHandle;
import org.jgroups.raft.util.Utils;

/**
 * Leadership decided by jgroups-raft and fenced in PostgreSQL.
 *
 * <p>A monitor thread watches the Raft role. When this node is the Raft leader it claims a new
 * fencing term in {@code cluster_state} (with its advertised addresses) and only after that claim
 * commits does {@link #term()} report it. The claim is refused when a leader of a later Raft term
 * has already claimed, so a node paused between winning and claiming cannot fence off its
 * successor. As soon as Raft says this node is no longer leader, or the recorded term is no longer
 * its own, {@link #term()} is empty again; a paused leader that has not noticed yet is still
 * stopped by the term check of every write transaction.
 *
 * <p><b>The lease.</b> Raft and the JGroups views do not keep two nodes from both believing they
 * lead for a moment: a view change can move a member to a new coordinator without its old leader
 * being told (a partial merge), and a majority may elect a successor before the old leader's own
 * checks notice. So leadership also needs a lease in {@code cluster_state}: the leader renews
 * {@code leader_seen_at} every quarter of the lease (a third of the failure timeout) and counts
 * itself leader only while its last renewal began less than a lease ago. Another node may claim
 * only once that lease has run out in the database's clock, which is never before the holder
 * stopped counting itself leader, or once the holder released it on stepping down (at once when it
 * stops, loses its majority or its Raft role). A crashed leader therefore delays its successor by
 * at most one lease.
 *
 * <p>A claim from an older Raft term is accepted once the holder's lease is {@link
 * TermClaims#STALE_AFTER} old: that happens when the Raft data directories were wiped (Raft terms
 * restarted below the recorded one), and never while a leader of a later Raft term is alive, so two
 * leaders never take the term from each other back and forth.
 */
public final class RaftLeadership implements Leadership {

  private static final Logger LOG = Logger.getLogger(RaftLeadership.class.getName());
  private static final long TICK_MILLIS = 50;
  private static final long RETRY_MILLIS = 500;
  private static final long REFRESH_MILLIS = 500;

  private final String nodeId;
  private final String httpUrl;
  private final String grpcAddress;
  private final TermStore terms;
  private final LeadershipEvents events;
  private final RaftHandle raft;
  private final LeaderPropagation propagation;
  private final MajorityContact contact;
  private final long failureTimeoutNanos;
  private final long renewMillis;
  private final HeldTerm held;
  private final TermClaims claims;

  private long lastTickNanos;
  private volatile String leader;
  private volatile LeaderRecord recorded = LeaderRecord.NONE;
  private volatile boolean running;
  private Thread monitor;

  private final MemberListCheck memberList;
  private final DatabaseCheck databases;
  private final AdvertisedAddressCheck advertised;

  // Monitor thread only.
  private long nextRefreshAt;

  /**
   * @param database the database this node uses, carried in its cluster address
   * @param stop ends the process when the node finds it cannot serve (its database is not the
   *     cluster's)
   */
  public RaftLeadership(
      ClusterSettings settings,
      TermStore terms,
      LeadershipEvents events,
      DatabaseIdentity database,
      java.util.function.Consumer<RuntimeException> stop)
      throws Exception {
    this.nodeId = settings.nodeId();
    this.httpUrl = settings.httpUrl();
    this.grpcAddress = settings.grpcAddress();
    this.terms = terms;
    this.events = events;
    this.raft =
        RaftStack.create(
            settings.members(),
            nodeId,
            settings.dataDir(),
            settings.failureTimeout(),
            settings.transportTls(),
            database.id(),
            settings.httpUrl(),
            settings.grpcAddress());
    this.memberList = new MemberListCheck(nodeId, settings.members());
    this.databases = new DatabaseCheck(nodeId, database, settings.members().ids().size(), stop);
    this.advertised =
        new AdvertisedAddressCheck(nodeId, settings.httpUrl(), settings.grpcAddress());
    this.propagation = new LeaderPropagation(nodeId, raft, settings.failureTimeout());
    this.contact = raft.channel().getProtocolStack().findProtocol(MajorityContact.class);
    this.failureTimeoutNanos = settings.failureTimeout().toNanos();
    Duration lease = settings.failureTimeout().dividedBy(3);
    this.renewMillis = Math.max(TICK_MILLIS, lease.toMillis() / 4);
    this.held = new HeldTerm(nodeId, settings.failureTimeout(), lease);
    this.claims = new TermClaims(settings, terms, held, events, lease, TICK_MILLIS);
    raft.addRoleListener(this::roleChanged);
    raft.channel()
        .setReceiver(
            new org.jgroups.Receiver() {
              @Override
              public void viewAccepted(org.jgroups.View view) {
                LOG.info("node " + nodeId + ": cluster view " + view);
                memberList.viewAccepted(view);
                databases.viewAccepted(view, raft.raft().majority());
                advertised.viewAccepted(view);
              }
            });
  }

  /** The nodes in the current view configured with another member list than this node's. */
  @Override
  public List<String> membersDisagreeing() {
    return memberList.disagreeing();
  }

  /** The nodes in the current view that use another database than this node's. */
  @Override
  public List<String> membersOnOtherDatabase() {
    return databases.membersOnOtherDatabase();
  }

  /** The nodes in the current view that advertise the same address as another, this included. */
  @Override
  public List<String> membersSharingAddresses() {
    return advertised.sharing();
  }

  /** Joins the cluster (blocks for at most the JGroups join timeout) and starts the monitor. */
  public void start() throws Exception {
    raft.channel().connect(RaftStack.CLUSTER_NAME);
    running = true;
    // A plain thread: it must run while the application is still starting, and it uses plain JDBC.
    monitor = new Thread(this::monitor, "raft-leadership-" + nodeId);
    monitor.setDaemon(true);
    monitor.start();
    LOG.info("node " + nodeId + " joined the Raft cluster " + raft.raft().members());
  }

  /** Leaves the cluster, so the others elect a new leader at once instead of after a timeout. */
  public void stop() {
    running = false;
    stepDown("the node is stopping");
    if (monitor != null) {
      monitor.interrupt();
      try {
        // A claim under way gives its term back itself once it sees running false (claim());
        // wait a little for that before the process may end.
        monitor.join(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    releaseGivenUpLease();
    raft.channel().close();
  }

  private void roleChanged(org.jgroups.protocols.raft.Role role) {
    if (role != org.jgroups.protocols.raft.Role.Leader) {
      stepDown("Raft role is now " + role);
    }
  }

  private void monitor() {
    while (running) {
      try {
        tick(System.nanoTime() / 1_000_000);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "leadership monitor: " + e.getMessage(), e);
      }
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void tick(long now) {
    stepDownAfterPause();
    releaseGivenUpLease();
    propagation.tick(now);
    RAFT protocol = raft.raft();
    boolean raftLeads = protocol.isLeader();
    long raftTerm = protocol.currentTerm();
    String known = idOf(protocol.leader());
    if (!Objects.equals(known, leader)) {
      leader = known;
      nextRefreshAt = 0;
      events.leaderChanged(known);
      LOG.info(
          "node "
              + nodeId
              + ": Raft leader is "
              + (known == null ? "unknown" : known)
              + " in Raft term "
              + raftTerm);
    }
    if (!raftLeads) {
      stepDown("not the Raft leader");
    } else if (!inTouchWithMajority(protocol)) {
      stepDown("no message from a majority for " + failureTimeoutNanos / 1_000_000 + " ms");
    } else if (!databases.mayLead()) {
      // Not electable (PreVoteElection), so only a view changing under an election gets here.
      stepDown(
          "nodes "
              + databases.membersOnOtherDatabase()
              + " use another database, and no database has a majority of the members");
    } else {
      // Not once stop() began: a claim that was in flight as the node stopped would otherwise
      // take a lease nobody releases, and the successor would wait for it to run out.
      if (held.needsClaim(raftTerm)
          && claims.claimIfDue(
              raftTerm,
              now,
              () -> running && raft.raft().isLeader() && raft.raft().currentTerm() == raftTerm)) {
        nextRefreshAt = 0;
      }
      held.confirmed();
    }
    if (now >= nextRefreshAt) {
      refresh(now);
    }
  }

  /**
   * A process that was paused (SIGSTOP, a long GC, a frozen VM) for longer than the failure timeout
   * may have been replaced meanwhile, and the messages buffered while it slept can make its
   * majority look fresh: it steps down and claims again, which the fencing term refuses if a
   * successor exists.
   */
  private void stepDownAfterPause() {
    long now = System.nanoTime();
    long gap = lastTickNanos == 0 ? 0 : now - lastTickNanos;
    lastTickNanos = now;
    if (gap > failureTimeoutNanos) {
      stepDown(
          "this node was paused for "
              + gap / 1_000_000
              + " ms, longer than the failure timeout; a successor may lead");
    }
  }

  /**
   * CheckQuorum: a leader that has heard from no majority within the failure timeout stops leading
   * before the majority can have elected its successor (MajorityContact).
   */
  private boolean inTouchWithMajority(RAFT protocol) {
    org.jgroups.View view = raft.channel().getView();
    return view != null
        && contact.majorityHeardWithin(view, protocol.majority(), failureTimeoutNanos);
  }

  /** Rereads the recorded leader: followers name it, and a leader learns it was superseded. */
  private void refresh(long now) {
    try {
      long mine = held.held();
      long sent = System.nanoTime();
      boolean renewed = mine != 0 && terms.renew(mine);
      if (renewed) {
        held.renewed(sent);
      }
      LeaderRecord current =
          renewed && mine == recorded.term() && nodeId.equals(recorded.nodeId())
              ? recorded
              : terms.read();
      recorded = current;
      databases.stillOn(current.databaseId());
      if (mine != 0 && !renewed) {
        stepDown(
            "term "
                + mine
                + " was superseded by term "
                + current.term()
                + " of "
                + current.nodeId());
      }
      boolean settled = leader != null && leader.equals(current.nodeId());
      nextRefreshAt = now + (renewed ? renewMillis : settled ? REFRESH_MILLIS : 4 * TICK_MILLIS);
    } catch (SQLException e) {
      nextRefreshAt = now + RETRY_MILLIS;
    }
  }

  private void stepDown(String reason) {
    held.stepDown(reason);
  }

  /**
   * Releases the lease of a term this node stopped leading in, so its successor need not wait for
   * the lease to run out. Run by the monitor (never on a JGroups thread) and when stopping; one
   * attempt, since the lease runs out on its own anyway.
   */
  private void releaseGivenUpLease() {
    long given = held.takeGivenUp();
    if (given == 0) {
      return;
    }
    try {
      terms.release(given);
    } catch (SQLException e) {
      LOG.fine("node " + nodeId + " could not release the lease of term " + given + ": " + e);
    }
  }

  private static String idOf(Address address) {
    if (address == null) {
      return null;
    }
    String id = Utils.extractRaftId(address);
    return id != null ? id : address.toString();
  }

  @Override
  public OptionalLong term() {
    long t = held.held();
    return t > 0 && held.leadsNow() ? OptionalLong.of(t) : OptionalLong.empty();
  }

  @Override
  public Optional<String> leaderId() {
    return Optional.ofNullable(leader);
  }

  @Override
  public Optional<String> leaderHttpAddress() {
    return leaderAddress(httpUrl, recordedFor(leader).map(LeaderRecord::httpUrl));
  }

  @Override
  public Optional<String> leaderGrpcAddress() {
    return leaderAddress(grpcAddress, recordedFor(leader).map(LeaderRecord::grpcAddress));
  }

  private Optional<String> leaderAddress(String own, Optional<String> recordedAddress) {
    String current = leader;
    if (current == null) {
      return Optional.empty();
    }
    return current.equals(nodeId) ? Optional.of(own) : recordedAddress;
  }

  private Optional<LeaderRecord> recordedFor(String node) {
    LeaderRecord r = recorded;
    return node != null && node.equals(r.nodeId()) ? Optional.of(r) : Optional.empty();
  }

  @Override
  public long knownTerm() {
    long own = held.held();
    return own > 0 ? own : recordedFor(leader).map(LeaderRecord::term).orElse(0L);
  }

  @Override
  public Role role() {
    if (held.leadsNow()) {
      return Role.LEADER;
    }
    String current = leader;
    return current != null && !current.equals(nodeId) ? Role.FOLLOWER : Role.CANDIDATE;
  }
}

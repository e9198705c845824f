package dev.controlplane.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.raft.ELECTION2;
import org.jgroups.protocols.raft.RaftHeader;
import org.jgroups.protocols.raft.election.BaseElection;
import org.jgroups.protocols.raft.election.PreVoteRequest;
import org.jgroups.protocols.raft.election.PreVoteResponse;
import org.jgroups.raft.util.Utils;

/**
 * jgroups-raft's leader election (the voting of {@link BaseElection}) behind a pre-vote that never
 * deposes a live leader.
 *
 * <h2>Why not ELECTION2</h2>
 *
 * ELECTION2's pre-vote counts every answer that names the same leader as the coordinator as a vote
 * for a new election, on the premise that the coordinator only asks when it suspects its leader.
 * After a partition heals that premise is false: the coordinator of the merged view asks because
 * the majority came back, learns the live leader while the answers arrive, and then deposes it — a
 * needless leader change seconds after every heal, won as often as not by the node that was cut
 * off. Its pre-vote round also has no retry, so one lost answer leaves a majority view without an
 * election.
 *
 * <h2>The rule here</h2>
 *
 * When a view reaches a majority, loses its leader, or gets a new coordinator, the coordinator asks
 * every member whom it follows. A voting round (BaseElection's, unchanged) starts only if no member
 * of the view answers that it leads itself. A round that misses answers is decided with a majority
 * of them after {@code vote_timeout}, or asked again. A member that still names a leader which left
 * the view does not count as a live leader. Only a member on the database a majority of the members
 * use can be elected ({@link DatabaseCensus}).
 *
 * <h2>Thread safety</h2>
 *
 * View changes, answers and the round timer run on JGroups threads; the round state is guarded by
 * this object's monitor.
 */
public final class PreVoteElection extends BaseElection {

  static final short PROTOCOL_ID = 1524;

  static {
    ClassConfigurator.addProtocol(PROTOCOL_ID, PreVoteElection.class);
    // The pre-vote headers are jgroups-raft's; ELECTION2's initializer registers their magic ids.
    try {
      Class.forName(ELECTION2.class.getName(), true, ELECTION2.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Map<Address, Optional<Address>> answers = new HashMap<>();
  private View roundView;
  private long round;
  private Future<?> roundTimer;

  @Override
  protected void handleView(View v) {
    View previous = this.view;
    this.view = v;
    switch (Utils.computeMajority(previous, v, raft)) {
      case lost -> {
        endRound();
        stopVotingThread();
        raft.setLeaderAndTerm(null);
      }
      case reached, leader_lost -> {
        if (isViewCoordinator()) {
          stopVotingThread();
          startRound(v);
        }
      }
      case no_change -> {
        List<Address> joined = View.newMembers(previous, v);
        if (raft.isLeader() && joined != null && !joined.isEmpty()) {
          sendLeaderElectedMessage(raft.leader(), raft.currentTerm());
        } else if ((Utils.viewCoordinatorChanged(previous, v) || raft.leader() == null)
            && isViewCoordinator()
            && isMajorityAvailable()) {
          // Also when nobody leads: a member that joins or leaves can give one database the
          // majority that none had (DatabaseCensus), and nothing else would start a round.
          startRound(v);
        }
      }
    }
  }

  @Override
  protected void handleMessage(Message msg, RaftHeader hdr) {
    if (hdr instanceof PreVoteRequest) {
      Message answer =
          new EmptyMessage(msg.getSrc())
              .putHeader(id, new PreVoteResponse(raft.leader()))
              .setFlag(Message.Flag.OOB);
      down_prot.down(answer);
    } else if (hdr instanceof PreVoteResponse response) {
      answered(msg.getSrc(), response.leader());
    } else {
      super.handleMessage(msg, hdr);
    }
  }

  /**
   * Runs BaseElection's voting round only while some member of the view may be elected: while no
   * database has a majority (DatabaseCensus) the round would elect nobody, and run again, each time
   * in a new Raft term.
   */
  @Override
  protected void runVotingProcess() {
    View current = view;
    if (current != null && DatabaseCensus.of(current, raft.majority()).electable().isEmpty()) {
      log.debug(
          "%s: no member of %s is on the cluster's database; no election", local_addr, current);
      // BaseElection stops its voting thread when the thread finds itself interrupted.
      Thread.currentThread().interrupt();
    }
    super.runVotingProcess();
  }

  /** BaseElection's choice (the most up-to-date Raft log) among the members that may lead. */
  @Override
  protected Address determineLeader() {
    View current = view;
    java.util.Set<Address> electable = DatabaseCensus.of(current, raft.majority()).electable();
    for (Address member : current.getMembers()) {
      if (!electable.contains(member)) {
        getVotes().remove(member);
      }
    }
    return super.determineLeader();
  }

  @Override
  public void stop() {
    endRound();
    super.stop();
  }

  private synchronized void startRound(View v) {
    if (isVotingThreadRunning()) {
      return;
    }
    endRound();
    roundView = v;
    long thisRound = ++round;
    down_prot.down(
        new EmptyMessage(null).putHeader(id, new PreVoteRequest()).setFlag(Message.Flag.OOB));
    roundTimer =
        getTransport()
            .getTimer()
            .schedule(() -> roundTimedOut(thisRound), voteTimeout(), TimeUnit.MILLISECONDS);
  }

  private synchronized void answered(Address member, Address itsLeader) {
    if (roundView == null || !roundView.containsMember(member)) {
      return;
    }
    answers.put(member, Optional.ofNullable(itsLeader));
    if (answers.keySet().containsAll(roundView.getMembers())) {
      decide();
    }
  }

  private synchronized void roundTimedOut(long timedOut) {
    if (timedOut != round || roundView == null) {
      return;
    }
    if (answers.size() >= raft.majority()) {
      decide();
    } else if (isViewCoordinator() && isMajorityAvailable()) {
      log.debug("%s: pre-vote answers from %s only; asking again", local_addr, answers.keySet());
      startRound(view);
    } else {
      endRound();
    }
  }

  private void decide() {
    View current = view;
    Optional<Address> live =
        answers.entrySet().stream()
            .filter(e -> e.getValue().filter(e.getKey()::equals).isPresent())
            .map(Map.Entry::getKey)
            .filter(current::containsMember)
            .findFirst();
    endRound();
    if (live.isPresent()) {
      log.debug("%s: %s leads and is in the view; no election", local_addr, live.get());
      return;
    }
    log.debug("%s: no member of %s leads; starting the voting round", local_addr, current);
    raft.setLeaderAndTerm(null);
    startVotingThread();
  }

  private synchronized void endRound() {
    if (roundTimer != null) {
      roundTimer.cancel(false);
      roundTimer = null;
    }
    roundView = null;
    answers.clear();
  }
}

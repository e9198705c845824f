package dev.controlplane.cluster;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.NON_BLOCKING_SENDS;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.protocols.raft.FileBasedLog;
import org.jgroups.protocols.raft.NO_DUPES;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.raft.RaftHandle;
import org.jgroups.raft.StateMachine;
import org.jgroups.stack.Protocol;

/**
 * The JGroups stack of a cluster node (stack-notes.md, jgroups-raft): TCP with TCPPING on the fixed
 * member addresses, MERGE3 (UninterruptedMerge3) so a paused or partitioned node rejoins, FD_SOCK2
 * (a crashed process is suspected at once) and FD_ALL3 (a frozen one after the failure timeout),
 * PreVoteElection, and RAFT with a file-based log. Each address carries a fingerprint of the node's
 * member list (MemberListCheck) and the id of its database (DatabaseCensus). Raft only elects:
 * nothing is ever appended to its log by the service, so its state machine is empty.
 */
final class RaftStack {

  static final String CLUSTER_NAME = "controlplane";
  private static final long RESEND_MILLIS = 250;
  private static final long VERIFY_MILLIS = 500;
  private static final long VOTE_TIMEOUT_MILLIS = 1500;

  private RaftStack() {}

  static RaftHandle create(
      ClusterMembers members,
      String nodeId,
      Path dataDir,
      Duration failureTimeout,
      java.util.Optional<javax.net.ssl.SSLContext> tls,
      java.util.UUID database,
      String advertisedHttp,
      String advertisedGrpc)
      throws Exception {
    org.jgroups.logging.LogFactory.useJdkLogger(true);
    Files.createDirectories(dataDir);
    long timeout = failureTimeout.toMillis();
    FD_ALL3 heartbeats = new FD_ALL3();
    heartbeats.setTimeout(timeout);
    // A silent member is suspected between timeout and timeout + interval, then verified for at
    // most VERIFY_MILLIS: a cut-off leader is replaced within about timeout + 1 s (spec: < 5 s).
    heartbeats.setInterval(Math.max(100, timeout / 6));
    NAKACK2 nakack = new NAKACK2();
    nakack.setValue("use_mcast_xmit", false);
    GMS gms = new GMS().setJoinTimeout(1000).setMaxJoinAttempts(3);
    gms.setValue("print_local_addr", false);
    RAFT raft =
        new RAFT()
            .members(members.ids())
            .raftId(nodeId)
            .logDir(dataDir.toString())
            // How often the leader resends its last entry to a member that lacks it: how soon a
            // member that joins or merges learns who leads (LeaderPropagation).
            .resendInterval(RESEND_MILLIS);
    raft.logClass(FileBasedLog.class.getName()).logPrefix(nodeId);
    InetAddress host = InetAddress.getByName(members.address(nodeId).getHostString());
    List<Protocol> stack =
        List.of(
            transport(members.address(nodeId), tls),
            // A thread handling an incoming message never blocks on a send (JGRP-2772).
            new NON_BLOCKING_SENDS(),
            new MajorityContact(),
            discovery(members),
            // Finds the subgroups of a healed partition: each member announces its view every
            // 0.5-1.5 s, and inconsistent views are merged at most 2 s later; a view GMS
            // announces but drops does not stop that (UninterruptedMerge3).
            new UninterruptedMerge3()
                .setMinInterval(500)
                .setMaxInterval(1500)
                .setCheckInterval(2000),
            new FD_SOCK2().setBindAddress(host),
            heartbeats,
            new VERIFY_SUSPECT2().setTimeout(Math.min(VERIFY_MILLIS, timeout / 4)),
            nakack,
            new UNICAST3(),
            new STABLE(),
            new NO_DUPES(),
            gms,
            new FRAG4(),
            // A round ends as soon as every member has answered; the limit only matters when
            // answers are late (a starved CPU), and 600 ms (the default) then failed round after
            // round, each starting a new Raft term.
            (PreVoteElection) new PreVoteElection().voteTimeout(VOTE_TIMEOUT_MILLIS),
            raft);
    JChannel channel = new JChannel(stack).name(nodeId);
    byte[] memberList = MemberListCheck.fingerprint(members);
    byte[] databaseEntry = DatabaseCensus.entry(database);
    byte[] httpEntry = AdvertisedAddressCheck.entry(advertisedHttp);
    byte[] grpcEntry = AdvertisedAddressCheck.entry(advertisedGrpc);
    // Merged with jgroups-raft's own generator (the Raft id) into one ExtendedUUID.
    channel.addAddressGenerator(
        () ->
            org.jgroups.util.ExtendedUUID.randomUUID(nodeId)
                .put(MemberListCheck.KEY, memberList)
                .put(DatabaseCensus.KEY, databaseEntry)
                .put(AdvertisedAddressCheck.HTTP_KEY, httpEntry)
                .put(AdvertisedAddressCheck.GRPC_KEY, grpcEntry));
    return new RaftHandle(channel, new NoState()).raftId(nodeId);
  }

  /**
   * TCP bound to exactly this member's configured address, for its listener and for the connections
   * it opens: no port range (so peers find it) and no wildcard (nothing listens on other
   * interfaces, and a firewall rule on the address cuts all of the node's cluster traffic).
   */
  private static TCP transport(
      InetSocketAddress self, java.util.Optional<javax.net.ssl.SSLContext> tls) throws Exception {
    TCP tcp = new TCP();
    // TLS on every member-to-member connection, both sides presenting a certificate of the
    // cluster CA (JGroups' own TLS support, given the service's reloading SSLContext).
    tls.ifPresent(
        context ->
            tcp.tls(
                new org.jgroups.util.TLS()
                    .enabled(true)
                    .setSSLContext(context)
                    .setProtocols(dev.controlplane.tls.TransportSecurity.PROTOCOLS.clone())
                    .setClientAuth(org.jgroups.util.TLSClientAuth.NEED)));
    InetAddress host = InetAddress.getByName(self.getHostString());
    tcp.setBindAddr(host);
    tcp.setValue("client_bind_addr", host);
    tcp.setValue("bind_port", self.getPort());
    tcp.setValue("port_range", 0);
    // A peer cut off by a partition drops packets instead of refusing them. Each connection gets
    // its own send queue, so a full one to that peer never holds up messages to the others, and a
    // connection attempt to it gives up quickly (loopback and LAN connects take microseconds).
    tcp.setValue("non_blocking_sends", true);
    tcp.setValue("sock_conn_timeout", 500);
    // Opening a connection happens on the thread that sends, and the default bundler sends for
    // every destination on one thread. Discovery and MERGE3 keep sending to a member that is cut
    // off, so each of those messages held up everything else (heartbeats, votes, suspicion checks)
    // for a whole connect timeout: a third of cut-off leaders took 6-10 s to replace instead of 4,
    // and two survivors once suspected each other and never re-formed a majority. One sender per
    // destination keeps a dead member's connect attempts to that member's own queue.
    tcp.setValue("bundler_type", OnceStartedBundler.class.getName());
    return tcp;
  }

  private static TCPPING discovery(ClusterMembers members) {
    TCPPING ping = new TCPPING();
    ping.setInitialHosts(resolved(members.addresses()));
    ping.setPortRange(0);
    // Discovery must not wait on members that are down or cut off.
    ping.setValue("async_discovery", true);
    return ping;
  }

  private static List<InetSocketAddress> resolved(List<InetSocketAddress> addresses) {
    return addresses.stream()
        .map(a -> new InetSocketAddress(a.getHostString(), a.getPort()))
        .toList();
  }

  /** The service keeps its state in PostgreSQL; the Raft log carries nothing to apply. */
  private static final class NoState implements StateMachine {
    @Override
    public byte[] apply(byte[] data, int offset, int length, boolean serializeResponse) {
      return null;
    }

    @Override
    public void readContentFrom(DataInput in) throws IOException {}

    @Override
    public void writeContentTo(DataOutput out) throws IOException {}
  }
}

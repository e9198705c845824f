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
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.protocols.raft.ELECTION2;
import org.jgroups.protocols.raft.FileBasedLog;
import org.jgroups.protocols.raft.NO_DUPES;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.raft.RaftHandle;
import org.jgroups.raft.StateMachine;
import org.jgroups.stack.Protocol;

/**
 * The JGroups stack of a cluster node (stack-notes.md, jgroups-raft): TCP with TCPPING on the fixed
 * member addresses, MERGE3 so a paused or partitioned node rejoins, FD_SOCK2 (a crashed process is
 * suspected at once) and FD_ALL3 (a frozen one after the failure timeout), ELECTION2 with pre-vote,
 * and RAFT with a file-based log. Raft only elects: nothing is ever appended to its log by the
 * service, so its state machine is empty.
 */
final class RaftStack {

  static final String CLUSTER_NAME = "controlplane";

  private RaftStack() {}

  static RaftHandle create(
      ClusterMembers members, String nodeId, Path dataDir, Duration failureTimeout)
      throws Exception {
    org.jgroups.logging.LogFactory.useJdkLogger(true);
    Files.createDirectories(dataDir);
    long timeout = failureTimeout.toMillis();
    FD_ALL3 heartbeats = new FD_ALL3();
    heartbeats.setTimeout(timeout);
    heartbeats.setInterval(Math.max(100, timeout / 4));
    NAKACK2 nakack = new NAKACK2();
    nakack.setValue("use_mcast_xmit", false);
    GMS gms = new GMS().setJoinTimeout(1000).setMaxJoinAttempts(3);
    gms.setValue("print_local_addr", false);
    RAFT raft = new RAFT().members(members.ids()).raftId(nodeId).logDir(dataDir.toString());
    raft.logClass(FileBasedLog.class.getName()).logPrefix(nodeId);
    List<Protocol> stack =
        List.of(
            transport(members.address(nodeId)),
            discovery(members),
            new MERGE3().setMinInterval(1000).setMaxInterval(3000),
            new FD_SOCK2(),
            heartbeats,
            new VERIFY_SUSPECT2().setTimeout(Math.min(1000, timeout / 3)),
            nakack,
            new UNICAST3(),
            new STABLE(),
            new NO_DUPES(),
            gms,
            new FRAG4(),
            new ELECTION2(),
            raft);
    JChannel channel = new JChannel(stack).name(nodeId);
    return new RaftHandle(channel, new NoState()).raftId(nodeId);
  }

  /** TCP bound to exactly this member's configured address: no port range, so peers find it. */
  private static TCP transport(InetSocketAddress self) throws Exception {
    TCP tcp = new TCP();
    tcp.setBindAddr(InetAddress.getByName(self.getHostString()));
    tcp.setValue("bind_port", self.getPort());
    tcp.setValue("port_range", 0);
    return tcp;
  }

  private static TCPPING discovery(ClusterMembers members) {
    TCPPING ping = new TCPPING();
    ping.setInitialHosts(resolved(members.addresses()));
    ping.setPortRange(0);
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

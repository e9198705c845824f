package dev.controlplane.cluster;

import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.protocols.PerDestinationBundler;

/**
 * JGroups' per-destination bundler with its send buffers created one at a time.
 *
 * <p>JGroups 5.4.11 creates a destination's buffer on first use with a check-then-act: two threads
 * that send to a destination without a buffer (or a send racing a view change) both start the same
 * buffer, and the second start gives it a new queue while its sender thread may already wait on the
 * first. From then on nothing sent to that destination leaves the node. When the destination is the
 * cluster (every multicast), the member's heartbeats, views and vote requests stop while its
 * unicasts still flow: three nodes started together once stayed leaderless, the first member's
 * peers suspecting it and never receiving a vote request (LeaderElectionIT, 2026-11-25). Creating
 * buffers under one lock leaves a single start per buffer; sends to a destination that has one, the
 * usual case, take no lock.
 */
public final class OnceStartedBundler extends PerDestinationBundler {

  private final Object creation = new Object();

  @Override
  public void send(Message msg) throws Exception {
    Address key = msg.dest() == null ? NULL : msg.dest();
    if (dests.get(key) != null) {
      super.send(msg);
      return;
    }
    synchronized (creation) {
      super.send(msg); // creates and starts the buffer unless another thread just did
    }
  }

  @Override
  public void viewChange(View view) {
    synchronized (creation) {
      super.viewChange(view);
    }
  }
}

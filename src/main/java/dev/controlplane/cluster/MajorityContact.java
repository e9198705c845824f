package dev.controlplane.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;

/**
 * Remembers when each member was last heard from, so a leader can tell that it has lost touch with
 * the majority before the majority replaces it (etcd's CheckQuorum).
 *
 * <p>It sits right above the transport and passes everything through. Only multicasts count: a
 * member multicasts to the members of its own view, and at least once per heartbeat interval
 * (FD_ALL3 sends a heartbeat whenever nothing else was multicast), so a multicast shows that the
 * sender still counts this node in its view. Unicasts prove nothing of the kind: after a partial
 * merge a member can sit in another coordinator's view, follow another leader, and still send this
 * node discovery and MERGE3 messages, which once kept a deposed leader believing it had a majority.
 * A member that appears in a view counts as heard at that moment; a sender outside the view is not
 * remembered.
 *
 * <p>Why: the others elect a new leader only after the failure timeout, the suspicion check and a
 * vote. A cut-off leader that waits for its own view to shrink may notice later than they do (its
 * failure detector runs on its own schedule), and until then two nodes would both say they lead.
 * Stepping down once no majority has been heard for the failure timeout ends its leadership before
 * a successor can exist, and a leader that wakes from a long pause steps down at once instead of
 * leading on for a moment.
 */
public final class MajorityContact extends Protocol {

  static final short PROTOCOL_ID = 1525;

  static {
    ClassConfigurator.addProtocol(PROTOCOL_ID, MajorityContact.class);
  }

  private final Map<Address, Long> lastHeard = new ConcurrentHashMap<>();

  @Override
  public Object up(Message msg) {
    if (msg.getDest() == null) {
      heard(msg.getSrc());
    }
    return up_prot.up(msg);
  }

  @Override
  public void up(MessageBatch batch) {
    if (batch.multicast()) {
      heard(batch.sender());
    }
    up_prot.up(batch);
  }

  @Override
  public Object up(Event evt) {
    viewChanged(evt);
    return up_prot.up(evt);
  }

  @Override
  public Object down(Event evt) {
    viewChanged(evt);
    return down_prot.down(evt);
  }

  private void viewChanged(Event evt) {
    if (evt.getType() == Event.VIEW_CHANGE) {
      View view = evt.getArg();
      long now = System.nanoTime();
      lastHeard.keySet().retainAll(view.getMembers());
      view.getMembers().forEach(member -> lastHeard.putIfAbsent(member, now));
    }
  }

  private void heard(Address sender) {
    if (sender != null) {
      // Only members of the view have an entry (the view change adds them): a node outside it,
      // such as every new incarnation of a restarting one, must not add entries until the next
      // view change prunes them, and could not count anyway.
      lastHeard.replace(sender, System.nanoTime());
    }
  }

  /** How many senders this node keeps a time for (the members of its view). */
  int remembered() {
    return lastHeard.size();
  }

  /**
   * Whether at least {@code majority} members of {@code view}, this node included, were heard from
   * within the last {@code windowNanos}.
   */
  boolean majorityHeardWithin(View view, int majority, long windowNanos) {
    long now = System.nanoTime();
    int heard = 1;
    for (Address member : view.getMembers()) {
      if (member.equals(local_addr)) {
        continue;
      }
      Long at = lastHeard.get(member);
      if (at != null && now - at <= windowNanos) {
        heard++;
      }
    }
    return heard >= majority;
  }
}

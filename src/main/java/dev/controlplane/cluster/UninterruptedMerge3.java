package dev.controlplane.cluster;

import org.jgroups.Event;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.MERGE3;

/**
 * MERGE3 whose tasks keep running when GMS announces a view.
 *
 * <p>MERGE3 is how a node that was cut off finds its way back: it tells the others its view (INFO)
 * and, as a coordinator, compares the views it hears of. JGroups 5.4.11 stops both tasks when GMS
 * announces a view it is about to install (TMP_VIEW) and starts them again only when a view is
 * installed; but GMS drops an announced view that is not newer than the node's own (a merge view
 * that already reached the node another way). From then on the node never tells anyone its view and
 * never checks theirs, so after a partition heals it stays in its own view for good. That matches
 * what LeaderElectionIT recorded on 2026-11-27 (not reproduced since, so not proven its cause): a
 * cut-off leader kept its old view for the 15 s after the heal and no node started a merge,
 * although the views differed and messages flowed both ways.
 *
 * <p>So TMP_VIEW only passes through here; an installed view still restarts both tasks, as before.
 * Between the two events (milliseconds) an INFO may carry the view being replaced: a coordinator
 * that hears it asks the members for their views, finds them equal and does nothing. The protocol
 * keeps MERGE3's protocol id, so its messages are MERGE3's on the wire.
 */
public final class UninterruptedMerge3 extends MERGE3 {

  public UninterruptedMerge3() {
    setId(ClassConfigurator.getProtocolId(MERGE3.class));
  }

  @Override
  public Object down(Event evt) {
    if (evt.getType() == Event.TMP_VIEW) {
      return down_prot.down(evt);
    }
    return super.down(evt);
  }
}

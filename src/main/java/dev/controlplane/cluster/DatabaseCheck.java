package dev.controlplane.cluster;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.jgroups.View;

/**
 * Tells the operator, and stops the node, when the node does not use the cluster's database ({@link
 * DatabaseCensus}): judged in every cluster view, and again whenever the node rereads {@code
 * cluster_state} (a multi-host URL, or a DNS name, can lead its connections elsewhere while it
 * runs).
 *
 * <h2>Thread safety</h2>
 *
 * Views arrive on JGroups threads, rereads on the leadership monitor; the state is volatile and the
 * stop happens once.
 */
final class DatabaseCheck {

  private static final Logger LOG = Logger.getLogger(DatabaseCheck.class.getName());
  private static final String SETTING = "SERVICE_CONTROLPLANE_DB_URL";

  private final String nodeId;
  private final DatabaseIdentity own;
  private final int members;
  private final Consumer<RuntimeException> stop;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private volatile List<String> onOtherDatabase = List.of();
  private volatile boolean onClusterDatabase;
  private volatile boolean decided;

  /**
   * @param members how many members are configured
   * @param stop ends the process with the exception's message (called at most once)
   */
  DatabaseCheck(String nodeId, DatabaseIdentity own, int members, Consumer<RuntimeException> stop) {
    this.nodeId = nodeId;
    this.own = own;
    this.members = members;
    this.stop = stop;
  }

  /** Judges a new view; {@code majority} is that of the configured members. */
  void viewAccepted(View view, int majority) {
    DatabaseCensus census = DatabaseCensus.of(view, majority);
    onClusterDatabase = census.clusterDatabase().filter(own.id()::equals).isPresent();
    var outvoting = census.outvoting(own.id());
    if (outvoting.isPresent()) {
      onOtherDatabase = census.onOtherDatabase(own.id());
      stopOnce(
          new OtherDatabaseException(
              "node "
                  + nodeId
                  + " uses another database than the cluster: its "
                  + SETTING
                  + " reaches "
                  + own.where()
                  + " (database id "
                  + own.id()
                  + "), while nodes "
                  + census.on(outvoting.get())
                  + ", a majority of the "
                  + members
                  + " members, use database id "
                  + outvoting.get()
                  + ". Every node must use the same database: correct "
                  + SETTING
                  + " on this node (compare it with the other nodes')."));
      return;
    }
    List<String> now = census.onOtherDatabase(own.id());
    boolean nowDecided = census.clusterDatabase().isPresent();
    List<String> before = onOtherDatabase;
    if (now.equals(before) && (now.isEmpty() || nowDecided == decided)) {
      return;
    }
    onOtherDatabase = now;
    decided = nowDecided;
    if (now.isEmpty()) {
      LOG.info("node " + nodeId + ": every node in the view uses this node's database again");
      return;
    }
    LOG.warning(
        "node "
            + nodeId
            + ": nodes "
            + now
            + " use another database than this node's ("
            + own.where()
            + ", database id "
            + own.id()
            + "). "
            + (nowDecided
                ? "They cannot be elected, and stop."
                : "No node can be elected until a majority of the "
                    + members
                    + " members use one database.")
            + " Every node must use the same database: compare "
            + SETTING
            + " on each node.");
  }

  /**
   * Stops the node when {@code read}, just read from {@code cluster_state}, is another database.
   */
  void stillOn(UUID read) {
    if (read != null && !read.equals(own.id())) {
      stopOnce(
          new OtherDatabaseException(
              "node "
                  + nodeId
                  + " started on database id "
                  + own.id()
                  + " ("
                  + own.where()
                  + ") but its connections now reach database id "
                  + read
                  + ": "
                  + SETTING
                  + " leads to another database than at start (a host list or DNS name that"
                  + " resolves elsewhere, or a database replaced while the node ran). The node"
                  + " stops rather than serve another database's metadata."));
    }
  }

  /**
   * False while the last view has members on other databases and none of them, this node's
   * included, has a majority: nobody may lead then (a view without a majority at all is
   * MajorityContact's concern).
   */
  boolean mayLead() {
    return onClusterDatabase || onOtherDatabase.isEmpty();
  }

  /** The members of the last view on another database than this node's, by name. */
  List<String> membersOnOtherDatabase() {
    return onOtherDatabase;
  }

  private void stopOnce(OtherDatabaseException problem) {
    if (stopped.compareAndSet(false, true)) {
      stop.accept(problem);
    }
  }
}

package dev.controlplane.config;

import dev.controlplane.cluster.ClusterMembers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The Raft cluster this node belongs to: its members, where Raft keeps its state, and how soon a
 * silent member is suspected (docs/configuration.md, "Cluster"). The node's own id is {@link
 * ControlPlaneConfig#nodeId()}.
 */
@ApplicationScoped
public class ClusterConfig {

  private static final String MEMBERS = "service.controlplane.cluster.members";
  private static final String DATA_DIR = "service.controlplane.raft.data.dir";
  private static final String FAILURE_TIMEOUT = "service.controlplane.raft.failure.timeout";

  @Inject ControlPlaneConfig node;

  @Inject
  @ConfigProperty(name = MEMBERS)
  Optional<String> members;

  @Inject
  @ConfigProperty(name = DATA_DIR)
  Optional<String> dataDir;

  @Inject
  @ConfigProperty(name = FAILURE_TIMEOUT, defaultValue = "3s")
  String failureTimeout;

  /** The Raft members ({@code cp1=127.0.0.1:7800,...}); empty means a single-node cluster. */
  public ClusterMembers members() {
    String text = members.orElse("");
    try {
      return ClusterMembers.parse(text);
    } catch (ClusterMembers.Invalid e) {
      // A setting's problem like any other: listed with the rest, in one line, no stack trace.
      throw Settings.invalid(MEMBERS, text, e.why());
    }
  }

  /**
   * Where Raft keeps its term, vote and log: the setting, else
   * java.io.tmpdir/controlplane-raft/NODE.
   */
  public Path raftDataDir() {
    return dataDir
        .filter(s -> !s.isBlank())
        .map(Path::of)
        .orElseGet(
            () ->
                Path.of(System.getProperty("java.io.tmpdir"), "controlplane-raft", node.nodeId()));
  }

  /**
   * How long a silent cluster member takes to be suspected (JGroups FD_ALL3 timeout), 500ms or
   * more.
   */
  public Duration raftFailureTimeout() {
    Duration d = Settings.duration(FAILURE_TIMEOUT, failureTimeout);
    if (d.toMillis() < 500) {
      throw Settings.invalid(FAILURE_TIMEOUT, failureTimeout, "is below 500ms");
    }
    return d;
  }

  /** Parses every setting once; each invalid one goes to {@code problems}. */
  public void validate(SettingProblems problems) {
    problems.check(this::raftFailureTimeout);
    problems.check(this::requireUsableMemberList);
    problems.check(this::checkRaftDataDir);
  }

  /** The member list is a cluster (none, or several nodes) and names this node. */
  void requireUsableMemberList() {
    ClusterMembers parsed = members();
    if (parsed.ids().size() == 1) {
      // A Raft group of one is a majority of itself: a node whose list was cut to its own
      // entry led alone, took the fencing term from the real cluster once its leader
      // stopped, and kept the others from electing one while it ran.
      throw Settings.invalid(
          MEMBERS,
          members.orElse(""),
          "names a single node: leave it empty for a single node, or list every member"
              + " of the cluster (3 or 5) on every node");
    }
    if (!parsed.isEmpty() && !parsed.contains(node.nodeId())) {
      throw Settings.invalid(
          "service.controlplane.node.id",
          node.nodeId(),
          "is not one of SERVICE_CONTROLPLANE_CLUSTER_MEMBERS " + parsed.ids());
    }
  }

  /** Raft keeps its term and vote there: a node that cannot must not join the cluster. */
  private void checkRaftDataDir() {
    if (members().isEmpty()) {
      return;
    }
    Path dir = raftDataDir();
    try {
      Files.createDirectories(dir);
    } catch (java.io.IOException | SecurityException e) {
      throw Settings.invalid(
          DATA_DIR, dir.toString(), "cannot be made a directory (" + describe(e) + ")");
    }
    if (!Files.isWritable(dir)) {
      throw Settings.invalid(DATA_DIR, dir.toString(), "is not writable by this process");
    }
  }

  private static String describe(Exception e) {
    return e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
        ? fs.getFile() + ": " + fs.getReason()
        : String.valueOf(e);
  }
}

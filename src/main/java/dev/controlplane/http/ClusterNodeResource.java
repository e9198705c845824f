package dev.controlplane.http;

import dev.controlplane.cluster.Leadership;
import dev.controlplane.config.ClusterConfig;
import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.watch.WatchHub;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Locale;

/**
 * The answering node's own view of the cluster, like etcd's endpoint status: its id, role, the
 * leader it knows, the term, the metadata version it serves and how far that lags behind the
 * committed head. Served also while no leader is known (see {@link QuorumFilter}): that is when an
 * operator needs it most.
 */
@Path("/v1/cluster/node")
@ApplicationScoped
@Produces({"application/json", "application/yaml"})
public class ClusterNodeResource {

  static final String PATH = "v1/cluster/node";

  @Inject ControlPlaneConfig config;
  @Inject ClusterConfig cluster;
  @Inject Leadership leadership;
  @Inject WatchHub hub;
  @Inject ChangeLog changeLog;
  @Inject ResourceCodec codec;
  @Inject AdminAuth auth;

  @GET
  public Response get(@Context HttpHeaders headers) {
    auth.requirePlatformReader(headers);
    long served = hub.head();
    long committed = changeLog.bounds().head();
    var tree = codec.newObject();
    tree.put("node_id", config.nodeId());
    tree.put("role", leadership.role().name().toLowerCase(Locale.ROOT));
    tree.put("leader", leadership.leaderId().orElse(""));
    tree.put("leader_url", leadership.leaderHttpAddress().orElse(""));
    tree.put("term", leadership.knownTerm());
    tree.put("metadata_version", served);
    tree.put("committed_version", committed);
    tree.put("lag", Math.max(0, committed - served));
    tree.put("watchers", hub.watcherCount());
    tree.put("members", cluster.members().canonical());
    var disagreeing = tree.putArray("members_disagreeing");
    leadership.membersDisagreeing().forEach(disagreeing::add);
    var otherDatabase = tree.putArray("members_on_other_database");
    leadership.membersOnOtherDatabase().forEach(otherDatabase::add);
    var sharing = tree.putArray("members_sharing_addresses");
    leadership.membersSharingAddresses().forEach(sharing::add);
    return Documents.body(Response.ok(), codec, tree, headers).build();
  }
}

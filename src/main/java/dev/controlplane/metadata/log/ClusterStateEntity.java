package dev.controlplane.metadata.log;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The single row holding the version counter, the retention horizon and the fencing term. */
@Entity
@Table(name = "cluster_state")
class ClusterStateEntity {
  @Id short id;

  @Column(name = "metadata_version")
  long metadataVersion;

  @Column(name = "retained_from")
  long retainedFrom;

  @Column(name = "leader_term", updatable = false)
  long leaderTerm;

  @Column(name = "leader_node", insertable = false, updatable = false)
  String leaderNode;

  @Column(name = "leader_http", insertable = false, updatable = false)
  String leaderHttp;

  @Column(name = "leader_grpc", insertable = false, updatable = false)
  String leaderGrpc;
}

package dev.controlplane.cluster;

/**
 * This node's database is not the cluster's: another database has a majority of the members, or the
 * database behind the node's connection changed while it ran. The node cannot serve.
 */
public final class OtherDatabaseException extends RuntimeException {

  OtherDatabaseException(String message) {
    super(message, null, false, false);
  }
}

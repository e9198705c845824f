/**
 * Metadata: the resources, their versioned change log, snapshots and watches. The services here are
 * the only writers of metadata; the HTTP and gRPC adapters call them.
 */
package dev.controlplane.metadata;

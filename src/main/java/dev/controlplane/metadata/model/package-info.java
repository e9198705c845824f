/**
 * The metadata resources of the spec (Tenant, Namespace, Stream, ShardPlacement, Broker) as
 * immutable values. Nothing here knows about storage, HTTP or gRPC.
 */
package dev.controlplane.metadata.model;

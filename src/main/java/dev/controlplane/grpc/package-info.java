/**
 * The gRPC adapter ({@code controlplane.v1}): translates protobuf messages to domain calls and
 * domain failures to status codes. No business rule lives here.
 */
package dev.controlplane.grpc;

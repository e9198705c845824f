package dev.controlplane.cli.apply;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.client.GrpcClient;
import dev.controlplane.cli.client.GrpcException;
import dev.controlplane.cli.client.Problem;
import dev.controlplane.cli.resource.ResourceRef;
import dev.controlplane.proto.v1.BrokerStatus;
import dev.controlplane.proto.v1.SetBrokerStatusRequest;
import dev.controlplane.proto.v1.SetBrokerStatusResponse;
import io.grpc.Status;
import java.util.List;

/**
 * A Broker document in an apply: brokers register themselves, so apply sets only {@code
 * spec.status} ({@code active} or {@code draining}) through the gRPC {@code SetBrokerStatus}, with
 * the same precondition and dry run as the HTTP writes. Its other fields are the broker's own and
 * are not compared. Only failure detection marks a broker {@code down}: a document saying so is
 * applied unchanged when the broker is down, as {@code cpctl get brokers -o yaml} printed it, and
 * refused otherwise.
 */
public final class BrokerStatusWriter {

  /** The document cannot be applied as a broker status. */
  static final class Invalid extends RuntimeException {
    Invalid(String message) {
      super(message);
    }
  }

  private final GrpcClient grpc;

  public BrokerStatusWriter(GrpcClient grpc) {
    this.grpc = grpc;
  }

  /** Sets the status; returns the broker as stored (or as it would be) in the HTTP form. */
  JsonNode write(
      ResourceRef ref,
      JsonNode doc,
      JsonNode live,
      WritePrecondition precondition,
      boolean dryRun) {
    if (!doc.path("apiVersion").asText().equals("controlplane/v1")) {
      throw new Invalid("apiVersion must be controlplane/v1");
    }
    String wanted = doc.path("spec").path("status").asText();
    if (wanted.equals("down")) {
      return alreadyDown(ref, live, precondition);
    }
    BrokerStatus status =
        switch (wanted) {
          case "active" -> BrokerStatus.BROKER_STATUS_ACTIVE;
          case "draining" -> BrokerStatus.BROKER_STATUS_DRAINING;
          default ->
              throw new Invalid(
                  "spec.status must be active or draining (down is set by failure detection)");
        };
    requireRegistered(ref, live);
    SetBrokerStatusRequest request =
        SetBrokerStatusRequest.newBuilder()
            .setBrokerId(ref.name())
            .setStatus(status)
            .setExpectedVersion(precondition.expectedVersion())
            .setDryRun(dryRun)
            .build();
    try {
      SetBrokerStatusResponse response =
          grpc.admin(
              null,
              dryRun ? GrpcClient.Effect.NONE : GrpcClient.Effect.WRITE,
              admin -> admin.setBrokerStatus(request));
      return asDocument(live, response);
    } catch (GrpcException e) {
      throw new ApiException(problem(e.status()));
    }
  }

  /**
   * A broker failure detection marked down, applied back as it was read: nothing to write, and
   * nothing an apply could write, since only failure detection sets {@code down}.
   */
  private static JsonNode alreadyDown(
      ResourceRef ref, JsonNode live, WritePrecondition precondition) {
    requireRegistered(ref, live);
    String current = live.path("spec").path("status").asText();
    if (!current.equals("down")) {
      throw new Invalid(
          "spec.status down is set by failure detection only; broker "
              + ref.name()
              + " is "
              + current
              + " (apply active or draining)");
    }
    long version = WritePrecondition.versionOf(live);
    if (precondition.expectedVersion() != version) {
      throw new ApiException(
          new Problem(
              409, "conflict", "broker " + ref.name() + " is at version " + version, List.of()));
    }
    return live;
  }

  private static void requireRegistered(ResourceRef ref, JsonNode live) {
    if (live == null) {
      throw new ApiException(
          new Problem(
              404,
              "not_found",
              "broker " + ref.name() + " is not registered; brokers register themselves",
              List.of()));
    }
  }

  /** The live document with the status and version the server answered. */
  private static JsonNode asDocument(JsonNode live, SetBrokerStatusResponse response) {
    var doc = live.deepCopy();
    var spec = (com.fasterxml.jackson.databind.node.ObjectNode) doc.path("spec");
    spec.put(
        "status",
        response
            .getBroker()
            .getStatus()
            .name()
            .replace("BROKER_STATUS_", "")
            .toLowerCase(java.util.Locale.ROOT));
    ((com.fasterxml.jackson.databind.node.ObjectNode) doc.path("metadata"))
        .put("version", response.getBroker().getVersion());
    return doc;
  }

  /** A gRPC refusal in HTTP terms, so apply reports it like the others (409 for a precondition). */
  private static Problem problem(Status grpcStatus) {
    Status.Code code = grpcStatus.getCode();
    int status =
        switch (code) {
          case INVALID_ARGUMENT -> 400;
          case UNAUTHENTICATED -> 401;
          case PERMISSION_DENIED -> 403;
          case NOT_FOUND -> 404;
          case FAILED_PRECONDITION, ALREADY_EXISTS -> 409;
          case UNAVAILABLE -> 503;
          default -> 500;
        };
    String description = grpcStatus.getDescription();
    return new Problem(
        status, code.name(), description == null ? code.name() : description, List.of());
  }
}

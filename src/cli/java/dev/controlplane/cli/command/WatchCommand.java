package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.GrpcClient;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.output.OutputFormat;
import dev.controlplane.cli.output.Printer;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import dev.controlplane.proto.v1.MetadataUpdate;
import dev.controlplane.proto.v1.WatchUpdatesRequest;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cpctl watch}: metadata updates as they are committed, like a broker receives them. */
@Command(
    name = "watch",
    header = "Print metadata updates as they are committed.",
    mixinStandardHelpOptions = true,
    description = {
      "Print metadata updates as they are committed, in version order without gaps (gRPC"
          + " WatchUpdates): from --from-version (exclusive), or from now. A broken connection is"
          + " resumed from the last version printed, on the next node if needed. Needs the"
          + " broker credential (context broker-token, or CPCTL_BROKER_TOKEN). Ctrl-C stops it.",
      "",
      "-o json prints one JSON object per line; -o yaml one document per update."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl watch",
      "  cpctl watch --from-version 1200 --kind streams,placements -t acme",
      "  cpctl watch -o json --count 10"
    })
public final class WatchCommand extends BaseCommand {

  private static final String ROW = "%-10s %-7s %-15s %s%n";

  @Option(
      names = "--from-version",
      paramLabel = "VERSION",
      description = "Updates after this version.")
  Long fromVersion;

  @Option(names = "--kind", split = ",", paramLabel = "KIND", description = "Only these kinds.")
  List<String> kinds;

  @Option(
      names = {"-t", "--tenant"},
      paramLabel = "TENANT",
      description = "Only this tenant's objects.")
  String tenant;

  @Option(names = "--count", paramLabel = "N", description = "Stop after N updates.")
  Long count;

  @Option(names = "--show-progress-notices", description = "Also print the server's idle notices.")
  boolean notices;

  @Mixin OutputOption output;

  private long printed;

  /** The last version received: a broken watch resumes after it. */
  private long at;

  @Override
  protected int execute() throws Exception {
    Session session = session();
    Set<String> wanted =
        kinds == null
            ? Set.of()
            : kinds.stream().map(k -> Kind.parse(k).kindName()).collect(Collectors.toSet());
    at = fromVersion != null ? fromVersion : head(session.grpc());
    PrintWriter out = session.out();
    if (output.format == OutputFormat.TABLE) {
      out.printf(ROW, "VERSION", "TYPE", "KIND", "NAME");
      out.flush();
    }
    long backoff = 250;
    while (true) {
      try {
        follow(session, wanted);
        return ExitCodes.OK;
      } catch (StatusRuntimeException e) {
        Status.Code code = e.getStatus().getCode();
        if (code == Status.Code.OUT_OF_RANGE) {
          throw new CliException(
              ExitCodes.FAILED,
              "version " + at + " is outside the retained history: watch without --from-version");
        }
        if (code != Status.Code.UNAVAILABLE && code != Status.Code.RESOURCE_EXHAUSTED) {
          throw GrpcClient.metadataFailure(e);
        }
        String node = session.grpc().nextNode();
        session
            .err()
            .println("watch broken (" + code + "); resuming after version " + at + " on " + node);
        session.err().flush();
        Thread.sleep(backoff);
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  /**
   * The current version: the version of a snapshot of the latest state (only its first chunk), from
   * the first node that can be reached, which the watch then follows.
   */
  static long head(GrpcClient grpc) {
    return grpc.readMetadata(WatchCommand::firstChunkVersion);
  }

  private static long firstChunkVersion(MetadataServiceGrpc.MetadataServiceBlockingStub stub) {
    // Cancelled on return: the other chunks are not wanted.
    try (Context.CancellableContext call = Context.current().withCancellation()) {
      return call.call(
          () -> stub.getSnapshot(GetSnapshotRequest.getDefaultInstance()).next().getVersion());
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Prints updates after {@link #at} until --count is reached or the server ends the stream. */
  private void follow(Session session, Set<String> wanted) throws Exception {
    try (Context.CancellableContext call = Context.current().withCancellation()) {
      call.call(
          () -> {
            Iterator<MetadataUpdate> updates =
                session
                    .grpc()
                    .watchBlocking()
                    .watchUpdates(WatchUpdatesRequest.newBuilder().setFromVersion(at).build());
            while ((count == null || printed < count) && updates.hasNext()) {
              MetadataUpdate update = updates.next();
              at = Math.max(at, update.getVersion());
              if (update.getPayloadCase() == MetadataUpdate.PayloadCase.PAYLOAD_NOT_SET) {
                if (notices) {
                  session.err().println("(current at version " + update.getVersion() + ")");
                  session.err().flush();
                }
              } else if (matches(update, wanted)) {
                print(session, update);
                printed++;
              }
            }
            return null;
          });
    }
  }

  private boolean matches(MetadataUpdate update, Set<String> wanted) {
    String kind = kindOf(update);
    if (!wanted.isEmpty() && !wanted.contains(kind)) {
      return false;
    }
    return tenant == null || tenant.equals(tenantOf(update));
  }

  private void print(Session session, MetadataUpdate update) {
    PrintWriter out = session.out();
    switch (output.format) {
      case JSON -> out.println(Printer.compactJson(document(update)));
      case YAML -> out.print("---\n" + Printer.yaml(document(update)));
      default ->
          out.printf(ROW, update.getVersion(), update.getType(), kindOf(update), nameOf(update));
    }
    out.flush();
  }

  /** The update in the gRPC JSON form, with its type even when it is CREATE (the zero value). */
  private static JsonNode document(MetadataUpdate update) {
    ObjectNode doc = Printer.JSON.createObjectNode();
    doc.put("version", update.getVersion());
    doc.put("type", update.getType().name());
    Protos.tree(update).fields().forEachRemaining(f -> doc.putIfAbsent(f.getKey(), f.getValue()));
    return doc;
  }

  static String kindOf(MetadataUpdate u) {
    return switch (u.getPayloadCase()) {
      case TENANT -> "Tenant";
      case NAMESPACE -> "Namespace";
      case STREAM -> "Stream";
      case PLACEMENT -> "ShardPlacement";
      case BROKER -> "Broker";
      case BRIDGE -> "Bridge";
      default -> "";
    };
  }

  private static String tenantOf(MetadataUpdate u) {
    return switch (u.getPayloadCase()) {
      case TENANT -> u.getTenant().getName();
      case NAMESPACE -> u.getNamespace().getTenant();
      case STREAM -> u.getStream().getTenant();
      case PLACEMENT -> u.getPlacement().getTenant();
      default -> null;
    };
  }

  static String nameOf(MetadataUpdate u) {
    return switch (u.getPayloadCase()) {
      case TENANT -> u.getTenant().getName();
      case NAMESPACE -> u.getNamespace().getTenant() + "/" + u.getNamespace().getName();
      case STREAM ->
          u.getStream().getTenant()
              + "/"
              + u.getStream().getNamespace()
              + "/"
              + u.getStream().getName();
      case PLACEMENT ->
          u.getPlacement().getTenant()
              + "/"
              + u.getPlacement().getNamespace()
              + "/"
              + u.getPlacement().getStream();
      case BROKER ->
          u.getBroker().getName()
              + " "
              + u.getBroker()
                  .getStatus()
                  .name()
                  .replace("BROKER_STATUS_", "")
                  .toLowerCase(Locale.ROOT);
      case BRIDGE -> u.getBridge().getName();
      default -> "";
    };
  }
}

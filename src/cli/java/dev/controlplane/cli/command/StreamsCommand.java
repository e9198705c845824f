package dev.controlplane.cli.command;

import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.GroupCommand;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.GrpcClient.Effect;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.ScopeOptions;
import dev.controlplane.cli.output.Render;
import dev.controlplane.cli.output.Table;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.Lister;
import dev.controlplane.proto.v1.AckPolicy;
import dev.controlplane.proto.v1.CreateStreamRequest;
import dev.controlplane.proto.v1.DeleteStreamRequest;
import dev.controlplane.proto.v1.Durability;
import dev.controlplane.proto.v1.ListStreamsRequest;
import dev.controlplane.proto.v1.ListStreamsResponse;
import dev.controlplane.proto.v1.RestoreStreamRequest;
import dev.controlplane.proto.v1.RetentionPolicy;
import dev.controlplane.proto.v1.StreamInfo;
import dev.controlplane.proto.v1.StreamSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cpctl streams}: stream administration over the gRPC AdminService. */
@Command(
    name = "streams",
    header = "Create, delete, restore, list and rebalance streams.",
    mixinStandardHelpOptions = true,
    description = {
      "Stream administration over gRPC (AdminService): list with live metrics, create, delete,"
          + " restore within the grace period, and rebalance shard placements. Needs"
          + " stream.manage on the streams (cluster-wide rebalancing: the operator token)."
    },
    subcommands = {
      StreamsCommand.ListStreams.class,
      StreamsCommand.Create.class,
      StreamsCommand.Delete.class,
      StreamsCommand.Restore.class,
      RebalanceCommand.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl streams list -t acme -n payments",
      "  cpctl streams create orders -t acme -n payments --shards 8 --replication-factor 3",
      "  cpctl streams rebalance --all --strategy minimize-movement --dry-run"
    })
public final class StreamsCommand extends GroupCommand {

  /** The name, tenant and namespace of one stream. */
  abstract static class OneStream extends BaseCommand {
    @Parameters(index = "0", paramLabel = "STREAM")
    String name;

    @Mixin ScopeOptions scope;

    String tenant() {
      return session().tenant(scope.tenant);
    }

    String namespace() {
      if (scope.namespace == null) {
        throw CliException.usage("a stream lives in a namespace: give --namespace (-n)");
      }
      return scope.namespace;
    }

    String display() {
      return "stream/" + tenant() + "/" + namespace() + "/" + name;
    }
  }

  @Command(
      name = "list",
      header = "List streams with the figures brokers report.",
      mixinStandardHelpOptions = true,
      description = {
        "List streams with the figures brokers report: subscribers, publish rate, stored bytes,"
            + " shards with a reporting leader, shards fully in sync. Without -n, every namespace"
            + " of the tenant."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl streams list -t acme -n payments",
        "  cpctl streams list -t acme --filter ord -o json"
      })
  static final class ListStreams extends BaseCommand {
    @Mixin ScopeOptions scope;
    @Mixin OutputOption output;

    @Option(names = "--filter", paramLabel = "TEXT", description = "Only names containing TEXT.")
    String filter = "";

    /** A stream as ListStreams describes it, with the namespace it was listed in. */
    private record Listed(String namespace, StreamInfo info) {}

    @Override
    protected int execute() {
      Session session = session();
      String tenant = session.tenant(scope.tenant);
      List<String> namespaces =
          scope.namespace != null
              ? List.of(scope.namespace)
              : new Lister(session.api()).names(Kind.NAMESPACE, tenant, "");
      List<Listed> streams = new ArrayList<>();
      for (String ns : namespaces) {
        streams.addAll(list(session, tenant, ns));
      }
      var list = dev.controlplane.cli.output.Printer.JSON.createArrayNode();
      for (Listed s : streams) {
        var item = (com.fasterxml.jackson.databind.node.ObjectNode) Protos.tree(s.info());
        list.add(item.put("namespace", s.namespace()));
      }
      if (!Render.structured(session, list, output.format)) {
        table(streams).print(session.out());
      }
      return ExitCodes.OK;
    }

    /** Every page of one namespace's streams. */
    private List<Listed> list(Session session, String tenant, String namespace) {
      List<Listed> out = new ArrayList<>();
      String token = "";
      do {
        ListStreamsRequest request =
            ListStreamsRequest.newBuilder()
                .setTenantId(tenant)
                .setNamespace(namespace)
                .setFilter(filter)
                .setPageSize(1000)
                .setPageToken(token)
                .build();
        ListStreamsResponse page =
            session.grpc().admin(tenant, Effect.NONE, a -> a.listStreams(request));
        page.getStreamsList().forEach(s -> out.add(new Listed(namespace, s)));
        token = page.getNextPageToken();
      } while (!token.isEmpty());
      return out;
    }

    private static Table table(List<Listed> streams) {
      Table table =
          new Table(
              "NAMESPACE",
              "NAME",
              "SHARDS",
              "RF",
              "SUBSCRIBERS",
              "PUBLISH/S",
              "STORED",
              "REPORTING",
              "IN-SYNC");
      for (Listed listed : streams) {
        StreamInfo s = listed.info();
        var m = s.getMetrics();
        table.row(
            listed.namespace(),
            s.getName(),
            s.getSpec().getShards(),
            s.getSpec().getReplicationFactor(),
            m.getActiveSubscribers(),
            String.format(Locale.ROOT, "%.1f", m.getPublishRate()),
            m.getStorageBytes(),
            m.getShardsReporting(),
            m.getShardsInSync());
      }
      return table;
    }
  }

  @Command(
      name = "create",
      header = "Create a stream (gRPC CreateStream).",
      mixinStandardHelpOptions = true,
      description = "Create a stream and place its shards on active brokers (gRPC CreateStream).",
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl streams create orders -t acme -n payments --shards 8 --replication-factor 3 \\",
        "      --retention-time 7d --retention-size 10GB"
      })
  static final class Create extends OneStream {
    @Option(names = "--shards", required = true, paramLabel = "N", description = "1 to 1024.")
    int shards;

    @Option(
        names = "--replication-factor",
        defaultValue = "1",
        paramLabel = "N",
        description = "1 to 16. Default: ${DEFAULT-VALUE}.")
    int replicationFactor;

    @Option(names = "--retention-time", paramLabel = "DURATION", description = "e.g. 7d.")
    String retentionTime = "";

    @Option(names = "--retention-size", paramLabel = "SIZE", description = "e.g. 10GB.")
    String retentionSize = "";

    @Option(
        names = "--durability",
        defaultValue = "durable",
        paramLabel = "D",
        description = "durable or ephemeral. Default: ${DEFAULT-VALUE}.")
    String durability;

    @Option(
        names = "--ack-policy",
        defaultValue = "quorum",
        paramLabel = "P",
        description = "quorum or leader_only. Default: ${DEFAULT-VALUE}.")
    String ackPolicy;

    @Override
    protected int execute() {
      StreamSpec spec =
          StreamSpec.newBuilder()
              .setShards(shards)
              .setReplicationFactor(replicationFactor)
              .setRetention(
                  RetentionPolicy.newBuilder().setTime(retentionTime).setSize(retentionSize))
              .setDurability(
                  switch (durability) {
                    case "durable" -> Durability.DURABILITY_DURABLE;
                    case "ephemeral" -> Durability.DURABILITY_EPHEMERAL;
                    default ->
                        throw CliException.usage("--durability must be durable or ephemeral");
                  })
              .setAckPolicy(
                  switch (ackPolicy.replace('-', '_')) {
                    case "quorum" -> AckPolicy.ACK_POLICY_QUORUM;
                    case "leader_only" -> AckPolicy.ACK_POLICY_LEADER_ONLY;
                    default ->
                        throw CliException.usage("--ack-policy must be quorum or leader_only");
                  })
              .build();
      String tenant = tenant();
      CreateStreamRequest request =
          CreateStreamRequest.newBuilder()
              .setTenantId(tenant)
              .setNamespace(namespace())
              .setStream(name)
              .setSpec(spec)
              .build();
      session().grpc().admin(tenant, Effect.WRITE, a -> a.createStream(request));
      session().out().println(display() + " created");
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "delete",
      header = "Delete a stream; restorable during the grace period.",
      mixinStandardHelpOptions = true,
      description = {
        "Delete a stream (gRPC DeleteStream): brokers stop serving it at once; it is purged after"
            + " the grace period and can be restored until then."
      },
      footerHeading = "%nExamples:%n",
      footer = "  cpctl streams delete orders -t acme -n payments --force")
  static final class Delete extends OneStream {
    @Option(names = "--force", description = "Even while brokers report active subscribers.")
    boolean force;

    @Override
    protected int execute() {
      String tenant = tenant();
      DeleteStreamRequest request =
          DeleteStreamRequest.newBuilder()
              .setTenantId(tenant)
              .setNamespace(namespace())
              .setStream(name)
              .setForce(force)
              .build();
      var response = session().grpc().admin(tenant, Effect.WRITE, a -> a.deleteStream(request));
      long purge = response.getPurgeAfterEpochMs();
      session()
          .out()
          .println(
              display()
                  + " deleted at version "
                  + response.getMetadataVersion()
                  + " (restorable "
                  + (purge > 0 ? "until " + Instant.ofEpochMilli(purge) : "during the grace period")
                  + ")");
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "restore",
      header = "Restore a deleted stream within the grace period.",
      mixinStandardHelpOptions = true,
      description =
          "Bring back a stream deleted less than the grace period ago, with a new placement.",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl streams restore orders -t acme -n payments")
  static final class Restore extends OneStream {
    @Override
    protected int execute() {
      String tenant = tenant();
      RestoreStreamRequest request =
          RestoreStreamRequest.newBuilder()
              .setTenantId(tenant)
              .setNamespace(namespace())
              .setStream(name)
              .build();
      var response = session().grpc().admin(tenant, Effect.WRITE, a -> a.restoreStream(request));
      session().out().println(display() + " restored at version " + response.getMetadataVersion());
      return ExitCodes.OK;
    }
  }
}

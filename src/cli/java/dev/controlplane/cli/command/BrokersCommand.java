package dev.controlplane.cli.command;

import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.GroupCommand;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.GrpcClient;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.output.Render;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.Lister;
import dev.controlplane.proto.v1.BrokerStatus;
import dev.controlplane.proto.v1.SetBrokerStatusRequest;
import dev.controlplane.proto.v1.SetBrokerStatusResponse;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cpctl brokers}: list brokers, drain them for maintenance, bring them back. */
@Command(
    name = "brokers",
    header = "List, drain and undrain brokers.",
    mixinStandardHelpOptions = true,
    description = {
      "Brokers register themselves; an operator lists them, drains one before maintenance (it"
          + " gets no new shards, and the next rebalance moves its replicas away) and undrains it"
          + " afterwards. drain and undrain need the operator token."
    },
    subcommands = {
      BrokersCommand.ListBrokers.class,
      BrokersCommand.Drain.class,
      BrokersCommand.Undrain.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl brokers list",
      "  cpctl brokers drain b3 && cpctl streams rebalance --all --strategy minimize-movement",
      "  cpctl brokers undrain b3"
    })
public final class BrokersCommand extends GroupCommand {

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the brokers (paged through).",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl brokers list -o yaml")
  static final class ListBrokers extends BaseCommand {
    @Mixin OutputOption output;

    @Override
    protected int execute() {
      Session session = session();
      Render.objects(
          session,
          Kind.BROKER,
          new Lister(session.api()).list(Kind.BROKER, null, null, false),
          output.format);
      return ExitCodes.OK;
    }
  }

  /** Sets the status of each named broker; one line per broker. */
  abstract static class SetStatus extends BaseCommand {
    @Parameters(index = "0..*", arity = "1..*", paramLabel = "BROKER")
    List<String> brokers;

    @Option(names = "--dry-run", description = "Check and show, change nothing.")
    boolean dryRun;

    abstract BrokerStatus status();

    @Override
    protected int execute() {
      Session session = session();
      for (String broker : brokers) {
        SetBrokerStatusRequest request =
            SetBrokerStatusRequest.newBuilder()
                .setBrokerId(broker)
                .setStatus(status())
                .setDryRun(dryRun)
                .build();
        SetBrokerStatusResponse response =
            session
                .grpc()
                .admin(
                    null,
                    dryRun ? GrpcClient.Effect.NONE : GrpcClient.Effect.WRITE,
                    a -> a.setBrokerStatus(request));
        String now =
            response
                .getBroker()
                .getStatus()
                .name()
                .replace("BROKER_STATUS_", "")
                .toLowerCase(Locale.ROOT);
        if (response.getBroker().getStatus() == BrokerStatus.BROKER_STATUS_DOWN) {
          // The broker stays down until it reports; say what the change means for its return.
          now +=
              response.getBroker().getDrainRequested()
                  ? ", draining when back"
                  : ", active when back";
        }
        session
            .out()
            .println(
                "broker/"
                    + broker
                    + " "
                    + now
                    + " (version "
                    + response.getBroker().getVersion()
                    + ")"
                    + (dryRun ? " (server dry run)" : ""));
        session.out().flush();
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "drain",
      mixinStandardHelpOptions = true,
      description = {
        "Mark brokers draining: no new shards; rebalancing empties them.",
        "The drain lasts until undrain, also while a broker is down: it comes back draining."
      },
      footerHeading = "%nExamples:%n",
      footer = "  cpctl brokers drain b3 b4 --dry-run")
  static final class Drain extends SetStatus {
    @Override
    BrokerStatus status() {
      return BrokerStatus.BROKER_STATUS_DRAINING;
    }
  }

  @Command(
      name = "undrain",
      mixinStandardHelpOptions = true,
      description = {"Mark draining brokers active again.", "A down broker comes back active."},
      footerHeading = "%nExamples:%n",
      footer = "  cpctl brokers undrain b3")
  static final class Undrain extends SetStatus {
    @Override
    BrokerStatus status() {
      return BrokerStatus.BROKER_STATUS_ACTIVE;
    }
  }
}

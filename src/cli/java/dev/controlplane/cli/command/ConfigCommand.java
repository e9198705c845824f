package dev.controlplane.cli.command;

import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.Cpctl;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.GroupCommand;
import dev.controlplane.cli.config.CliConfig;
import dev.controlplane.cli.config.ContextConfig;
import dev.controlplane.cli.config.CredentialsConfig;
import dev.controlplane.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cpctl config}: contexts in the configuration file. */
@Command(
    name = "config",
    header = "Manage contexts (servers and credentials).",
    mixinStandardHelpOptions = true,
    description = {
      "Manage contexts: the servers of a cluster and how to authenticate there, kept in"
          + " $HOME/.config/cpctl/config.yaml (CPCTL_CONFIG or XDG_CONFIG_HOME move it)."
    },
    subcommands = {
      ConfigCommand.SetContext.class,
      ConfigCommand.UseContext.class,
      ConfigCommand.GetContexts.class,
      ConfigCommand.CurrentContext.class,
      ConfigCommand.DeleteContext.class,
      ConfigCommand.View.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl config set-context local --server http://127.0.0.1:9080 --grpc-server 127.0.0.1:9090",
      "  cpctl config use-context prod",
      "  cpctl config get-contexts"
    })
public final class ConfigCommand extends GroupCommand {

  @Command(
      name = "set-context",
      header = "Create a context or change its settings.",
      mixinStandardHelpOptions = true,
      description = {
        "Create a context, or change the given settings of an existing one: --server and"
            + " --grpc-server (HTTP base URLs, gRPC host:port or https://host:port of the nodes)"
            + " and the options below. The first context becomes the current one.",
        "",
        "Credentials, tried in this order: CPCTL_TOKEN; the operator token; a stored service"
            + " token of the request's tenant (cpctl token exchange --store); a service token"
            + " exchanged for the output of --token-command. Snapshot and watch use the broker"
            + " credential when one is set."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl config set-context local --server http://127.0.0.1:9080 \\",
        "      --grpc-server 127.0.0.1:9090 \\",
        "      --operator-token-env SERVICE_CONTROLPLANE_OPERATOR_TOKEN \\",
        "      --broker-token-env SERVICE_CONTROLPLANE_BROKER_TOKEN",
        "  cpctl config set-context prod --server https://cp1.example.net,https://cp2.example.net \\",
        "      --grpc-server https://cp1.example.net:9090 --ca-file ca.pem \\",
        "      --tenant acme --token-command 'oidc-login --print-token'"
      })
  static final class SetContext extends BaseCommand {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Option(names = "--ca-file", paramLabel = "PEM", description = "CA of the servers' TLS.")
    String caFile;

    @Option(
        names = "--client-cert",
        paramLabel = "PEM",
        description =
            "Certificate chain to present on gRPC over TLS (a broker's, for watch and"
                + " snapshot when the cluster requires mutual TLS).")
    String clientCert;

    @Option(
        names = "--client-key",
        paramLabel = "PEM",
        description = "PKCS#8 private key of --client-cert.")
    String clientKey;

    @Option(names = "--tenant", paramLabel = "TENANT", description = "Default tenant.")
    String tenant;

    @Option(names = "--operator-token", paramLabel = "TOKEN", description = "Operator token.")
    String operatorToken;

    @Option(
        names = "--operator-token-env",
        paramLabel = "VAR",
        description = "Environment variable holding the operator token.")
    String operatorTokenEnv;

    @Option(
        names = "--token-command",
        paramLabel = "COMMAND",
        description = "Shell command printing an upstream OIDC token to exchange.")
    String tokenCommand;

    @Option(names = "--broker-token", paramLabel = "TOKEN", description = "Broker credential.")
    String brokerToken;

    @Option(
        names = "--broker-token-env",
        paramLabel = "VAR",
        description = "Environment variable holding the broker credential.")
    String brokerTokenEnv;

    @Override
    protected int execute() {
      if (operatorToken != null && operatorTokenEnv != null) {
        throw CliException.usage(
            "give the operator token one way: --operator-token or --operator-token-env");
      }
      if (brokerToken != null && brokerTokenEnv != null) {
        throw CliException.usage(
            "give the broker token one way: --broker-token or --broker-token-env");
      }
      CliConfig config = session().config();
      boolean existed = config.context(name).isPresent();
      ContextConfig context = config.contextForUpdate(name);
      // --server and --grpc-server are cpctl's global options: here they set the context's.
      Cpctl root = (Cpctl) spec.root().userObject();
      if (root.servers() != null) {
        context.servers = root.servers();
      }
      if (root.grpcServers() != null) {
        context.grpcServers = root.grpcServers();
      }
      context.caFile = caFile != null ? caFile : context.caFile;
      context.clientCert = clientCert != null ? clientCert : context.clientCert;
      context.clientKey = clientKey != null ? clientKey : context.clientKey;
      context.tenant = tenant != null ? tenant : context.tenant;
      if (context.credentials == null) {
        context.credentials = new CredentialsConfig();
      }
      CredentialsConfig c = context.credentials;
      // A token and its -env form are one setting given two ways: the one given replaces the
      // other, or a stored literal (which wins) kept being sent after a switch to the variable.
      if (operatorToken != null || operatorTokenEnv != null) {
        c.operatorToken = operatorToken;
        c.operatorTokenEnv = operatorTokenEnv;
      }
      c.tokenCommand = tokenCommand != null ? tokenCommand : c.tokenCommand;
      if (brokerToken != null || brokerTokenEnv != null) {
        c.brokerToken = brokerToken;
        c.brokerTokenEnv = brokerTokenEnv;
      }
      session().saveConfig();
      session()
          .out()
          .println("context " + name + (existed ? " modified" : " created") + currentNote(config));
      return ExitCodes.OK;
    }

    private String currentNote(CliConfig config) {
      return name.equals(config.currentContext) ? " (current)" : "";
    }
  }

  @Command(
      name = "use-context",
      mixinStandardHelpOptions = true,
      description = "Make a context the current one.",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl config use-context prod")
  static final class UseContext extends BaseCommand {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Override
    protected int execute() {
      CliConfig config = session().config();
      if (config.context(name).isEmpty()) {
        throw CliException.config("context " + name + " does not exist");
      }
      config.currentContext = name;
      session().saveConfig();
      session().out().println("switched to context " + name);
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "get-contexts",
      mixinStandardHelpOptions = true,
      description = "List the contexts; * marks the current one.",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl config get-contexts")
  static final class GetContexts extends BaseCommand {
    @Override
    protected int execute() {
      CliConfig config = session().config();
      Table table = new Table("CURRENT", "NAME", "SERVERS", "GRPC", "TENANT", "CREDENTIALS");
      for (ContextConfig c : config.contexts) {
        table.row(
            c.name.equals(config.currentContext) ? "*" : " ",
            c.name,
            String.join(",", c.servers),
            String.join(",", c.grpcServers),
            c.tenant,
            c.credentials == null ? "none" : c.credentials.describe());
      }
      table.print(session().out());
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "current-context",
      mixinStandardHelpOptions = true,
      description = "Print the current context's name.",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl config current-context")
  static final class CurrentContext extends BaseCommand {
    @Override
    protected int execute() {
      String current = session().config().currentContext;
      if (current == null) {
        throw CliException.config("no current context (cpctl config set-context --help)");
      }
      session().out().println(current);
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "delete-context",
      mixinStandardHelpOptions = true,
      description = "Remove a context (and its stored secrets).",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl config delete-context old-cluster")
  static final class DeleteContext extends BaseCommand {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Override
    protected int execute() {
      CliConfig config = session().config();
      if (!config.contexts.removeIf(c -> c.name.equals(name))) {
        throw CliException.config("context " + name + " does not exist");
      }
      if (name.equals(config.currentContext)) {
        config.currentContext = null;
      }
      session().saveConfig();
      session().out().println("context " + name + " deleted");
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "view",
      header = "Print the configuration file (secrets redacted).",
      mixinStandardHelpOptions = true,
      description = "Print the configuration file, secrets replaced by REDACTED unless --raw.",
      footerHeading = "%nExamples:%n",
      footer = {"  cpctl config view", "  cpctl config view --raw"})
  static final class View extends BaseCommand {
    @Option(names = "--raw", description = "Show stored secrets too.")
    boolean raw;

    @Override
    protected int execute() {
      CliConfig config = session().config();
      session().out().print(raw ? config.rawYaml() : config.redactedYaml());
      session().out().println("# " + session().configPath());
      return ExitCodes.OK;
    }
  }
}

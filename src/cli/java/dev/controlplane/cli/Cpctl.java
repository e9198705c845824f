package dev.controlplane.cli;

import dev.controlplane.cli.apply.ApplyCommand;
import dev.controlplane.cli.client.GrpcClient;
import dev.controlplane.cli.command.AuditCommand;
import dev.controlplane.cli.command.BrokersCommand;
import dev.controlplane.cli.command.ClusterCommand;
import dev.controlplane.cli.command.CompletionCommand;
import dev.controlplane.cli.command.ConfigCommand;
import dev.controlplane.cli.command.DeleteCommand;
import dev.controlplane.cli.command.DescribeCommand;
import dev.controlplane.cli.command.GetCommand;
import dev.controlplane.cli.command.IssuersCommand;
import dev.controlplane.cli.command.KeysCommand;
import dev.controlplane.cli.command.RbacCommand;
import dev.controlplane.cli.command.SnapshotCommand;
import dev.controlplane.cli.command.StreamsCommand;
import dev.controlplane.cli.command.TokenCommand;
import dev.controlplane.cli.command.WatchCommand;
import dev.controlplane.cli.config.Target;
import dev.controlplane.cli.output.Progress;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code cpctl} command: global options, subcommands, and how failures become exit codes. */
@Command(
    name = "cpctl",
    header = "Manage a control plane cluster from the command line.",
    mixinStandardHelpOptions = true,
    versionProvider = Cpctl.Version.class,
    description = {
      "Manage a control plane cluster: declarative apply, reads, watches, snapshots and"
          + " administration over its HTTP and gRPC APIs.",
      "",
      "Settings come from the current context (cpctl config --help), overridden by CPCTL_*"
          + " environment variables and the options below."
    },
    subcommands = {
      ConfigCommand.class,
      ApplyCommand.class,
      GetCommand.class,
      DescribeCommand.class,
      DeleteCommand.class,
      WatchCommand.class,
      SnapshotCommand.class,
      TokenCommand.class,
      RbacCommand.class,
      IssuersCommand.class,
      KeysCommand.class,
      StreamsCommand.class,
      BrokersCommand.class,
      ClusterCommand.class,
      AuditCommand.class,
      CompletionCommand.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl config set-context local --server http://127.0.0.1:9080 \\",
      "      --grpc-server 127.0.0.1:9090 \\",
      "      --operator-token-env SERVICE_CONTROLPLANE_OPERATOR_TOKEN",
      "  cpctl apply -f tenants.yaml",
      "  cpctl get streams -t acme -n payments -o yaml",
      "",
      "Exit codes: 0 done; 1 the server refused, or an object failed; 2 usage error;",
      "3 no usable context or credential; 4 no server reachable or able to serve (503)."
    })
public final class Cpctl extends GroupCommand {

  @Option(
      names = "--context",
      scope = ScopeType.INHERIT,
      paramLabel = "NAME",
      description = "The context to use (default: CPCTL_CONTEXT, else the current context).")
  String context;

  @Option(
      names = {"-s", "--server"},
      scope = ScopeType.INHERIT,
      split = ",",
      paramLabel = "URL",
      description = "HTTP base URL(s) of the nodes, overriding the context (CPCTL_SERVER).")
  List<String> servers;

  @Option(
      names = "--grpc-server",
      scope = ScopeType.INHERIT,
      split = ",",
      paramLabel = "HOST:PORT",
      description = "gRPC address(es) of the nodes, overriding the context (CPCTL_GRPC_SERVER).")
  List<String> grpcServers;

  @Option(
      names = "--progress",
      scope = ScopeType.INHERIT,
      defaultValue = "auto",
      paramLabel = "WHEN",
      converter = ProgressMode.class,
      description =
          "Progress of long operations on stderr: auto (on a terminal, or every 10 s),"
              + " always, never. Default: ${DEFAULT-VALUE}.")
  Progress.Mode progress;

  private final Map<String, String> env;
  private final InputStream stdin;
  private final PrintWriter out;
  private final PrintWriter err;
  private Session session;

  Cpctl(Map<String, String> env, InputStream stdin, PrintWriter out, PrintWriter err) {
    this.env = env;
    this.stdin = stdin;
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8));
    System.exit(run(args, System.getenv(), System.in, out, err));
  }

  /** Runs one command line and returns its exit code (docs/cli.md, Exit codes). */
  public static int run(
      String[] args, Map<String, String> env, InputStream stdin, PrintWriter out, PrintWriter err) {
    Cpctl root = new Cpctl(env, stdin, out, err);
    try {
      return commandLine(root).setOut(out).setErr(err).execute(args);
    } finally {
      if (root.session != null) {
        root.session.close();
      }
      out.flush();
      err.flush();
    }
  }

  /** The command tree, with cpctl's error handling (also used to write completion scripts). */
  public static CommandLine commandLine(Cpctl root) {
    CommandLine cli = new CommandLine(root);
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> failed(e, commandLine.getErr(), root.env));
    cli.setParameterExceptionHandler(
        (e, args) -> {
          PrintWriter w = e.getCommandLine().getErr();
          w.println("error: " + e.getMessage());
          w.println("See '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
          return ExitCodes.USAGE;
        });
    return cli;
  }

  /** A new root for tools that only need the command tree (completion, help tests). */
  public static Cpctl detached() {
    PrintWriter sink = new PrintWriter(java.io.Writer.nullWriter());
    return new Cpctl(Map.of(), InputStream.nullInputStream(), sink, sink);
  }

  private static int failed(Exception e, PrintWriter err, Map<String, String> env) {
    CliException failure =
        e instanceof CliException c
            ? c
            : e instanceof StatusRuntimeException s
                ? GrpcClient.failure(s)
                : new CliException(
                    ExitCodes.FAILED,
                    "unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage(),
                    e);
    err.println("error: " + failure.getMessage());
    if (env.containsKey("CPCTL_DEBUG")) {
      e.printStackTrace(err);
    }
    err.flush();
    return failure.exitCode();
  }

  /** {@code --server}, when given. */
  public List<String> servers() {
    return servers;
  }

  /** {@code --grpc-server}, when given. */
  public List<String> grpcServers() {
    return grpcServers;
  }

  synchronized Session session() {
    if (session == null) {
      session =
          new Session(
              env, stdin, out, err, new Target.Overrides(context, servers, grpcServers), progress);
    }
    return session;
  }

  /** {@code --progress} values, any case. */
  static final class ProgressMode implements CommandLine.ITypeConverter<Progress.Mode> {
    @Override
    public Progress.Mode convert(String value) {
      return Progress.Mode.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** The version of the JAR (its manifest's Implementation-Version). */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Cpctl.class.getPackage().getImplementationVersion();
      return new String[] {"cpctl " + (version == null ? "(development build)" : version)};
    }
  }
}

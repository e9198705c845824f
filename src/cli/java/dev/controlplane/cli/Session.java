package dev.controlplane.cli;

import dev.controlplane.cli.client.ApiClient;
import dev.controlplane.cli.client.Credentials;
import dev.controlplane.cli.client.GrpcClient;
import dev.controlplane.cli.config.CliConfig;
import dev.controlplane.cli.config.Target;
import dev.controlplane.cli.output.Printer;
import dev.controlplane.cli.output.Progress;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * One run of cpctl: its streams and environment, and, created on first use, the configuration, the
 * resolved target and the HTTP and gRPC clients. Commands reach everything through it.
 */
public final class Session implements AutoCloseable {

  private final Map<String, String> env;
  private final InputStream stdin;
  private final PrintWriter out;
  private final PrintWriter err;
  private final Target.Overrides overrides;
  private final Progress.Mode progress;
  private CliConfig config;
  private Target target;
  private Credentials credentials;
  private ApiClient api;
  private GrpcClient grpc;

  Session(
      Map<String, String> env,
      InputStream stdin,
      PrintWriter out,
      PrintWriter err,
      Target.Overrides overrides,
      Progress.Mode progress) {
    this.env = env;
    this.stdin = stdin;
    this.out = out;
    this.err = err;
    this.overrides = overrides;
    this.progress = progress;
  }

  public Path configPath() {
    return CliConfig.location(env);
  }

  public synchronized CliConfig config() {
    if (config == null) {
      config = CliConfig.load(configPath());
    }
    return config;
  }

  public void saveConfig() {
    config().save(configPath());
  }

  public synchronized Target target() {
    if (target == null) {
      target = Target.resolve(config(), env, overrides);
    }
    return target;
  }

  public synchronized Credentials credentials() {
    if (credentials == null) {
      credentials = new Credentials(target());
    }
    return credentials;
  }

  public synchronized ApiClient api() {
    if (api == null) {
      api = new ApiClient(target(), credentials());
    }
    return api;
  }

  public synchronized GrpcClient grpc() {
    if (grpc == null) {
      grpc = new GrpcClient(target(), credentials());
    }
    return grpc;
  }

  /** The tenant of a command: its {@code --tenant}, else the context's (a usage error if none). */
  public String tenant(String flag) {
    return target().tenantOr(flag);
  }

  public Printer printer() {
    return new Printer(out);
  }

  public PrintWriter out() {
    return out;
  }

  public PrintWriter err() {
    return err;
  }

  public InputStream stdin() {
    return stdin;
  }

  public Map<String, String> env() {
    return env;
  }

  public Progress progress(String what, long total) {
    return Progress.start(err, progress, what, total);
  }

  @Override
  public synchronized void close() {
    if (grpc != null) {
      grpc.close();
    }
    out.flush();
    err.flush();
  }
}

package dev.controlplane.it.support;

import java.time.Duration;
import java.util.Map;

/**
 * A control plane node of its own, for settings the shared server must not have (allowed
 * algorithms, low-S signatures, short key lifetimes), with bootstrap enabled, on a database of the
 * run ({@code <test db>_<suffix>}), emptied first. One per database at a time.
 */
public final class IsolatedServer implements AutoCloseable {

  private final ServerProcess process;
  private final int httpPort;
  private final int bootstrapPort;
  private final int grpcPort;

  private IsolatedServer(ServerProcess process, int httpPort, int bootstrapPort, int grpcPort) {
    this.process = process;
    this.httpPort = httpPort;
    this.bootstrapPort = bootstrapPort;
    this.grpcPort = grpcPort;
  }

  /** On the {@code <test db>_trust} database. */
  public static IsolatedServer start(String name, Map<String, String> settings) throws Exception {
    return start(name, "trust", settings);
  }

  public static IsolatedServer start(String name, String dbSuffix, Map<String, String> settings)
      throws Exception {
    String db = database(dbSuffix);
    TestDatabase.reset(db);
    return startOn(name, db, settings);
  }

  /** On the database at {@code jdbcUrl} as it is, migrated to this build's schema if need be. */
  public static IsolatedServer startOn(String name, String jdbcUrl, Map<String, String> settings)
      throws Exception {
    String db = jdbcUrl;
    int http = Ports.free();
    int bootstrap = Ports.free();
    int grpc = Ports.free();
    Map<String, String> env = SharedServer.baseEnvironment(http, grpc, db);
    env.put("SERVICE_CONTROLPLANE_DB_MIGRATE", "migrate");
    env.put("SERVICE_BOOTSTRAP_ENABLED", "true");
    env.put("SERVICE_BOOTSTRAP_BIND_ADDR", "127.0.0.1:" + bootstrap);
    env.put("SERVICE_BOOTSTRAP_TOKEN", SharedServer.BOOTSTRAP_TOKEN);
    env.putAll(settings);
    ServerProcess process = new ServerProcess(name, env).start();
    try {
      process.awaitReady(Duration.ofSeconds(120));
    } catch (Exception e) {
      process.close();
      throw e;
    }
    return new IsolatedServer(process, http, bootstrap, grpc);
  }

  /** The JDBC URL of the run's database {@code <test db>_<suffix>}. */
  public static String database(String suffix) {
    return TestDatabase.url(TestDatabase.name() + "_" + suffix);
  }

  public int httpPort() {
    return httpPort;
  }

  public ServerProcess process() {
    return process;
  }

  public int bootstrapPort() {
    return bootstrapPort;
  }

  public int grpcPort() {
    return grpcPort;
  }

  @Override
  public void close() {
    process.close();
  }
}

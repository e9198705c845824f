package dev.controlplane.bench;

import dev.controlplane.it.support.SharedServer;
import java.util.Map;

/** The settings of a benchmark's node, on top of the integration tests' own. */
final class BenchNode {

  private BenchNode() {}

  /**
   * A node that migrates its (emptied) database itself and whose heartbeat monitor stays quiet: the
   * benchmarks register brokers that send no heartbeats.
   */
  static Map<String, String> environment(int httpPort, int grpcPort, String db) {
    Map<String, String> env = SharedServer.baseEnvironment(httpPort, grpcPort, db);
    env.put("SERVICE_CONTROLPLANE_DB_MIGRATE", "migrate");
    env.put("SERVICE_CONTROLPLANE_HEARTBEAT_INTERVAL", "1h");
    return env;
  }

  /**
   * A node for write and watch phases, with the change-log retention and watch settings the
   * published figures were measured with pinned (today's defaults), so that a change of a default
   * does not move the benchmarks unnoticed.
   */
  static Map<String, String> writeEnvironment(int httpPort, int grpcPort, String db) {
    Map<String, String> env = environment(httpPort, grpcPort, db);
    env.put("SERVICE_CONTROLPLANE_RETENTION_MIN_VERSIONS", "100000");
    env.put("SERVICE_CONTROLPLANE_RETENTION_PERIOD", "24h");
    env.put("SERVICE_CONTROLPLANE_WATCH_PROGRESS_INTERVAL", "10s");
    env.put("SERVICE_CONTROLPLANE_WATCH_STALL_TIMEOUT", "30s");
    return env;
  }
}

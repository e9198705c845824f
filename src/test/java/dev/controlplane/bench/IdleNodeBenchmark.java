package dev.controlplane.bench;

import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What a node that serves nothing costs (docs/benchmarks.md, "A node at rest"): a single node with
 * {@code bench.tenants} tenants (each with its signing key), left alone for {@code
 * bench.settleSeconds} so that its start and the tenants' creation are behind it, then measured for
 * {@code bench.measureSeconds}: the node's CPU, PostgreSQL's CPU, the transactions of its database
 * and the WAL written. Once with the settings' defaults, once with the integration tests' shorter
 * intervals (the shared test server's). Run with scripts/benchmark-idle, alone on the machine:
 * PostgreSQL's CPU and WAL are the whole server's.
 */
public final class IdleNodeBenchmark {

  private static final int TENANTS = Integer.getInteger("bench.tenants", 20);
  private static final int SETTLE_SECONDS = Integer.getInteger("bench.settleSeconds", 120);
  private static final int MEASURE_SECONDS = Integer.getInteger("bench.measureSeconds", 120);

  public static void main(String[] args) throws Exception {
    String db = TestDatabase.url(System.getProperty("bench.db", "controlplane_bench_idle"));
    measure("defaults", db, false);
    measure("the integration tests' intervals", db, true);
  }

  private static void measure(String label, String db, boolean testIntervals) throws Exception {
    TestDatabase.reset(db);
    int http = Ports.free();
    Map<String, String> env =
        testIntervals ? testEnvironment(http, db) : defaultEnvironment(http, db);
    try (ServerProcess node = new ServerProcess("bench-idle", env).start()) {
      node.awaitReady(Duration.ofSeconds(180));
      Http client = new Http(http, SharedServer.OPERATOR_TOKEN);
      for (int i = 0; i < TENANTS; i++) {
        int status = client.put("/v1/tenants/t" + i, Http.tenant("t" + i, "")).status();
        if (status != 201) {
          throw new IllegalStateException("tenant t" + i + ": " + status);
        }
      }
      Thread.sleep(SETTLE_SECONDS * 1000L);
      CpuMeter nodeCpu = CpuMeter.of("node", node.serverPid());
      CpuMeter postgres = CpuMeter.postgres();
      Duration nodeBefore = nodeCpu.total();
      Duration postgresBefore = postgres.total();
      long transactionsBefore = transactions(db);
      String walBefore = wal(db);
      long started = System.nanoTime();
      Thread.sleep(MEASURE_SECONDS * 1000L);
      double seconds = (System.nanoTime() - started) / 1e9;
      double nodeSeconds = nodeCpu.total().minus(nodeBefore).toNanos() / 1e9;
      double postgresSeconds = postgres.total().minus(postgresBefore).toNanos() / 1e9;
      // Two of them are this benchmark's own readings.
      long transactions = transactions(db) - transactionsBefore;
      long walBytes =
          TestDatabase.queryLong(
              db, "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '" + walBefore + "')::bigint");
      System.out.printf(
          "%s, %d tenants, %.0f s after %d s at rest: node %.2f s CPU/min (%.1f %% of a core),"
              + " PostgreSQL %.2f s CPU/min, %.1f transactions/s, WAL %.1f KiB/min%n",
          label,
          TENANTS,
          seconds,
          SETTLE_SECONDS,
          nodeSeconds * 60 / seconds,
          nodeSeconds * 100 / seconds,
          postgresSeconds * 60 / seconds,
          transactions / seconds,
          walBytes / 1024.0 * 60 / seconds);
    }
  }

  /** Only what a node needs to start: every interval at its default. */
  private static Map<String, String> defaultEnvironment(int http, String db) {
    Map<String, String> env = new HashMap<>();
    env.put("SERVICE_CONTROLPLANE_HTTP_PORT", Integer.toString(http));
    env.put("SERVICE_CONTROLPLANE_GRPC_PORT", Integer.toString(Ports.free()));
    env.put("SERVICE_CONTROLPLANE_BIND_HOST", "127.0.0.1");
    env.put("SERVICE_CONTROLPLANE_DB_URL", db);
    env.put("SERVICE_CONTROLPLANE_DB_USER", TestDatabase.USER);
    env.put("SERVICE_CONTROLPLANE_DB_PASSWORD", TestDatabase.PASSWORD);
    env.put("SERVICE_CONTROLPLANE_DB_MIGRATE", "migrate");
    env.put("SERVICE_CONTROLPLANE_OPERATOR_TOKEN", SharedServer.OPERATOR_TOKEN);
    env.put("SERVICE_CONTROLPLANE_BROKER_TOKEN", SharedServer.BROKER_TOKEN);
    env.put("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY", SharedServer.KEY_ENCRYPTION_KEY);
    return env;
  }

  /** The shared test server's intervals, which its tests wait out. */
  private static Map<String, String> testEnvironment(int http, String db) {
    Map<String, String> env = SharedServer.baseEnvironment(http, Ports.free(), db);
    env.put("SERVICE_CONTROLPLANE_DB_MIGRATE", "migrate");
    env.put("SERVICE_CONTROLPLANE_JWKS_MAX_AGE", SharedServer.JWKS_MAX_AGE.toMillis() + "ms");
    env.put("SERVICE_CONTROLPLANE_KEY_ROTATION_CHECK_INTERVAL", "250ms");
    return env;
  }

  private static long transactions(String db) throws Exception {
    return TestDatabase.queryLong(
        db,
        "SELECT xact_commit + xact_rollback FROM pg_stat_database"
            + " WHERE datname = current_database()");
  }

  private static String wal(String db) throws Exception {
    try (var c =
            java.sql.DriverManager.getConnection(db, TestDatabase.USER, TestDatabase.PASSWORD);
        var s = c.createStatement();
        var rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
      rs.next();
      return rs.getString(1);
    }
  }
}

package dev.controlplane.it.support;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * One control plane node shared by the integration tests of a run, started on first use against a
 * freshly emptied test database and stopped when the test JVM exits. Tests must not depend on each
 * other's data: each works in tenants and brokers of its own.
 */
public final class SharedServer {

  public static final String BROKER_TOKEN = "it-broker-secret";
  public static final String OPERATOR_TOKEN = "it-operator-secret";

  /** Heartbeat interval of the shared server: a broker is down after 3 s of silence. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(1);

  /** Versions the shared server keeps at least (retention period 0). */
  public static final long RETAINED_VERSIONS = 3000;

  public static final Duration STALL_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(1);

  /**
   * Grace period of deleted streams on the shared server: long enough to restore, short enough to
   * wait out. CpctlAdminIT restores with a second cpctl process; with 6 s, on a loaded machine the
   * two JVM starts between its delete and its restore outlasted the grace, and the restore was
   * rightly refused.
   */
  public static final Duration DELETE_GRACE = Duration.ofSeconds(12);

  public static final String BOOTSTRAP_TOKEN = "it-bootstrap-secret-0123456789";

  /** A test key-encryption key (base64 of 32 bytes); never a real one. */
  public static final String KEY_ENCRYPTION_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

  /** JWKS max-age of the shared server: a rotated key signs this long after it is published. */
  public static final Duration JWKS_MAX_AGE = Duration.ofSeconds(2);

  /** The one internal network issuer URLs of test servers may reach: the test OIDC provider's. */
  public static final String LOCAL_IDP_NETWORK = "127.0.0.1/32";

  private static ServerProcess server;
  private static int httpPort;
  private static int grpcPort;
  private static int bootstrapPort;
  private static Certificates.Pair issuerCa;
  private static Certificates certificates;

  private SharedServer() {}

  public static synchronized void ensureStarted() throws Exception {
    if (server != null) {
      return;
    }
    TestDatabase.reset(TestDatabase.url());
    httpPort = Ports.free();
    grpcPort = Ports.free();
    bootstrapPort = Ports.free();
    Map<String, String> env = baseEnvironment(httpPort, grpcPort, TestDatabase.url());
    env.put("SERVICE_CONTROLPLANE_DB_MIGRATE", "migrate");
    env.put("SERVICE_BOOTSTRAP_ENABLED", "true");
    env.put("SERVICE_BOOTSTRAP_BIND_ADDR", "127.0.0.1:" + bootstrapPort);
    env.put("SERVICE_BOOTSTRAP_TOKEN", BOOTSTRAP_TOKEN);
    env.put("SERVICE_CONTROLPLANE_JWKS_MAX_AGE", JWKS_MAX_AGE.toMillis() + "ms");
    env.put("SERVICE_CONTROLPLANE_KEY_ROTATION_CHECK_INTERVAL", "250ms");
    // A private CA whose certificates the node trusts for issuers besides the JDK's
    // (HttpsIssuerIT).
    certificates = new Certificates(java.nio.file.Files.createTempDirectory("issuer-ca-"));
    issuerCa = certificates.ca("issuer-ca");
    env.put("SERVICE_CONTROLPLANE_OIDC_CA_FILE", issuerCa.cert().toString());
    // Started as operators start a node, so that every run also goes through the JAR's launcher.
    server =
        new ServerProcess(Fork.qualify(System.getProperty("it.shared.name", "shared"), "-"), env)
            .viaRunnableJar()
            .start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    server.awaitReady(Duration.ofSeconds(120));
  }

  /** The settings every test server shares; callers add or override. */
  public static Map<String, String> baseEnvironment(int http, int grpc, String dbUrl) {
    Map<String, String> env = new HashMap<>();
    env.put("SERVICE_CONTROLPLANE_HTTP_PORT", Integer.toString(http));
    env.put("SERVICE_CONTROLPLANE_GRPC_PORT", Integer.toString(grpc));
    env.put("SERVICE_CONTROLPLANE_BIND_HOST", "127.0.0.1");
    env.put("SERVICE_CONTROLPLANE_DB_URL", dbUrl);
    env.put("SERVICE_CONTROLPLANE_DB_USER", TestDatabase.USER);
    env.put("SERVICE_CONTROLPLANE_DB_PASSWORD", TestDatabase.PASSWORD);
    env.put("SERVICE_CONTROLPLANE_BROKER_TOKEN", BROKER_TOKEN);
    env.put("SERVICE_CONTROLPLANE_OPERATOR_TOKEN", OPERATOR_TOKEN);
    env.put("SERVICE_CONTROLPLANE_HEARTBEAT_INTERVAL", HEARTBEAT.toMillis() + "ms");
    env.put("SERVICE_CONTROLPLANE_RETENTION_PERIOD", "0s");
    env.put("SERVICE_CONTROLPLANE_RETENTION_MIN_VERSIONS", Long.toString(RETAINED_VERSIONS));
    env.put("SERVICE_CONTROLPLANE_RETENTION_CHECK_INTERVAL", "1s");
    env.put("SERVICE_CONTROLPLANE_WATCH_STALL_TIMEOUT", STALL_TIMEOUT.toMillis() + "ms");
    env.put("SERVICE_CONTROLPLANE_WATCH_PROGRESS_INTERVAL", PROGRESS_INTERVAL.toMillis() + "ms");
    env.put("SERVICE_CONTROLPLANE_STREAM_DELETE_GRACE", DELETE_GRACE.toMillis() + "ms");
    env.put("SERVICE_CONTROLPLANE_STREAM_PURGE_INTERVAL", "500ms");
    env.put("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY", KEY_ENCRYPTION_KEY);
    // The test OIDC provider serves plain http on 127.0.0.1, which issuer URLs may reach only
    // when allowed; every other internal address stays refused (TrustBoundaryIT checks that).
    env.put("SERVICE_CONTROLPLANE_OIDC_ALLOW_HTTP", "true");
    env.put("SERVICE_CONTROLPLANE_OIDC_ALLOWED_NETWORKS", LOCAL_IDP_NETWORK);
    return env;
  }

  public static int httpPort() {
    return httpPort;
  }

  public static int grpcPort() {
    return grpcPort;
  }

  public static int bootstrapPort() {
    return bootstrapPort;
  }

  /** The CA of SERVICE_CONTROLPLANE_OIDC_CA_FILE, and where its certificates are made. */
  public static Certificates.Pair issuerCa() {
    return issuerCa;
  }

  public static Certificates certificates() {
    return certificates;
  }

  public static ServerProcess process() {
    return server;
  }
}

package dev.controlplane.it.support;

import com.sun.net.httpserver.HttpServer;
import dev.controlplane.cluster.ClusterMembers;
import dev.controlplane.cluster.ClusterSettings;
import dev.controlplane.cluster.LeadershipEvents;
import dev.controlplane.cluster.RaftLeadership;
import dev.controlplane.cluster.TermStore;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The election layer of one node in a JVM of its own: the product's {@link RaftLeadership} and
 * {@link TermStore}, wired as {@code NodeLeadership} wires them, against a real PostgreSQL, without
 * the rest of the server. It starts in about a second where the whole server takes 15 to 25 s, so a
 * test can cold-start a cluster many times. {@code GET /status} answers the fields readiness
 * reports: {@code {"role":"leader","leader":"cp1","term":7,"members_on_other_database":[]}}. A node
 * that finds it cannot run (its database is not the cluster's) exits with status 3.
 *
 * <p>Configured by environment: {@code NODE_ID}, {@code MEMBERS}, {@code RAFT_DIR}, {@code
 * STATUS_PORT}, {@code DB_URL}, {@code FAILURE_TIMEOUT} (ISO-8601, default PT3S), {@code
 * ADVERTISED_HTTP} (default {@code http://127.0.0.1:<STATUS_PORT>}).
 */
public final class ElectionNode {

  private ElectionNode() {}

  public static void main(String[] args) throws Exception {
    String id = System.getenv("NODE_ID");
    int port = Integer.parseInt(System.getenv("STATUS_PORT"));
    javax.sql.DataSource db = TestDatabase.dataSource(System.getenv("DB_URL"));
    String timeout = System.getenv().getOrDefault("FAILURE_TIMEOUT", "PT3S");
    ClusterSettings settings =
        new ClusterSettings(
            id,
            System.getenv().getOrDefault("ADVERTISED_HTTP", "http://127.0.0.1:" + port),
            "127.0.0.1:" + port,
            ClusterMembers.parse(System.getenv("MEMBERS")),
            Path.of(System.getenv("RAFT_DIR")),
            Duration.parse(timeout));
    TermStore terms = new TermStore(db);
    RaftLeadership leadership =
        new RaftLeadership(
            settings,
            terms,
            LeadershipEvents.NONE,
            terms.databaseIdentity(),
            problem -> {
              // As the server's FatalStop: one line, then exit status 3, from another thread.
              System.err.println("control plane cannot run: " + problem.getMessage());
              new Thread(() -> System.exit(3), "exit").start();
            });
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 16);
    server.createContext(
        "/status",
        exchange -> {
          String leader = leadership.leaderId().map(l -> "\"" + l + "\"").orElse("null");
          String otherDatabase =
              leadership.membersOnOtherDatabase().stream()
                  .map(n -> "\"" + n + "\"")
                  .collect(java.util.stream.Collectors.joining(","));
          String sharing =
              leadership.membersSharingAddresses().stream()
                  .map(n -> "\"" + n + "\"")
                  .collect(java.util.stream.Collectors.joining(","));
          byte[] body =
              String.format(
                      "{\"role\":\"%s\",\"leader\":%s,\"term\":%d,"
                          + "\"members_on_other_database\":[%s],"
                          + "\"members_sharing_addresses\":[%s]}",
                      leadership.role().name().toLowerCase(java.util.Locale.ROOT),
                      leader,
                      leadership.knownTerm(),
                      otherDatabase,
                      sharing)
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    leadership.start();
    Runtime.getRuntime().addShutdownHook(new Thread(leadership::stop));
    Thread.currentThread().join();
  }
}

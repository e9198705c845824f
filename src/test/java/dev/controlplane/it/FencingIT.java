package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import dev.controlplane.proto.v1.RegisterBrokerRequest;
import dev.controlplane.proto.v1.ReportHealthRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The fence is the write pipeline's own transaction, for every table. A single node never hears
 * that it was deposed (it has no Raft to tell it), so when another process records the next term in
 * {@code cluster_state} — as a new leader's claim does — the node still believes it leads and
 * accepts every request; only the term check in the first statement of each batch stands between it
 * and the tables. ClusterIT freezes a real leader, but its thawed node usually learns from Raft
 * first and refuses at the door; this test takes that shortcut away.
 */
class FencingIT {

  private static final String[] COUNTS = {
    "SELECT count(*) FROM tenants",
    "SELECT count(*) FROM namespaces",
    "SELECT count(*) FROM brokers",
    "SELECT count(*) FROM rbac_policies",
    "SELECT count(*) FROM idp_issuers",
    "SELECT count(*) FROM signing_keys",
    "SELECT count(*) FROM metadata_updates",
    "SELECT metadata_version FROM cluster_state",
    "SELECT extract(epoch FROM last_heartbeat_at) * 1000000 FROM broker_health"
  };

  @Test
  void aNodeWhoseTermWasTakenCommitsNothingToAnyTable() throws Exception {
    String db = IsolatedServer.database("fence");
    try (IsolatedServer node = IsolatedServer.start("fencing", "fence", Map.of());
        Grpc grpc = new Grpc(node.grpcPort(), SharedServer.BROKER_TOKEN)) {
      Http http = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      assertThat(http.put("/v1/tenants/fence", Http.tenant("fence", "before")).status())
          .isEqualTo(201);
      grpc.brokers().registerBroker(broker("fence-b1"));
      grpc.brokers().reportHealth(heartbeat());
      String before = counts(db);

      execute(
          db,
          "UPDATE cluster_state SET leader_term = leader_term + 1, leader_node = 'usurper'"
              + " WHERE id = 1");

      refused(() -> http.put("/v1/tenants/fence-2", Http.tenant("fence-2", "x")));
      refused(() -> http.put("/v1/tenants/fence", Http.tenant("fence", "after")));
      refused(
          () ->
              http.put("/v1/tenants/fence/namespaces/ns", Http.namespace("fence", "ns", "fenced")));
      refused(
          () ->
              post(
                  http,
                  "/v1/tenants/fence/rbac/policies",
                  "{\"subject\":\"role:fenced\",\"object\":\"tenant:fence\","
                      + "\"action\":\"tenant.manage\"}"));
      refused(
          () ->
              post(
                  http,
                  "/v1/tenants/fence/idp-issuers",
                  Auth.issuerRecord("idp-fence", null).toString()));
      refused(() -> post(http, "/v1/tenants/fence/signing-keys/rotate", ""));
      unavailable(() -> grpc.brokers().reportHealth(heartbeat()));
      unavailable(() -> grpc.brokers().registerBroker(broker("fence-b2")));

      assertThat(counts(db)).as("nothing of any table changed").isEqualTo(before);
    }
  }

  private static RegisterBrokerRequest broker(String id) {
    return RegisterBrokerRequest.newBuilder().setBrokerId(id).setAddress("127.0.0.1:1").build();
  }

  private static ReportHealthRequest heartbeat() {
    return ReportHealthRequest.newBuilder().setBrokerId("fence-b1").build();
  }

  private static Http.Reply post(Http http, String path, String body) {
    return http.send(
        http.request(path)
            .header("Content-Type", "application/json")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)));
  }

  private static void refused(Supplier<Http.Reply> write) {
    Http.Reply reply = write.get();
    assertThat(reply.status()).as(reply.body()).isEqualTo(503);
    assertThat(reply.json().path("code").asText()).isEqualTo("not_leader");
    assertThat(reply.json().path("detail").asText()).contains("is no longer current");
    assertThat(reply.json().path("leader").asText()).as("the recorded leader").isEqualTo("usurper");
  }

  private static void unavailable(Runnable call) {
    try {
      call.run();
      throw new AssertionError("the fenced node accepted the call");
    } catch (StatusRuntimeException e) {
      assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(e.getStatus().getDescription()).contains("is no longer current");
    }
  }

  private static String counts(String db) throws Exception {
    StringBuilder out = new StringBuilder();
    try (Connection c = DriverManager.getConnection(db, TestDatabase.USER, TestDatabase.PASSWORD);
        Statement s = c.createStatement()) {
      for (String sql : COUNTS) {
        try (ResultSet rs = s.executeQuery(sql)) {
          rs.next();
          out.append(sql).append(" = ").append(rs.getString(1)).append('\n');
        }
      }
    }
    return out.toString();
  }

  private static void execute(String db, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(db, TestDatabase.USER, TestDatabase.PASSWORD);
        Statement s = c.createStatement()) {
      s.executeUpdate(sql);
    }
  }
}

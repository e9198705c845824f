package dev.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.FakeServer;
import dev.controlplane.cli.client.ApiClient.Call;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which failures of one node send a request on to the next. A read may go anywhere. A write goes on
 * only when it certainly stored nothing; sent twice, it would meet itself as someone else's change
 * (docs/api.md: "a blind retry of a create may then get conflict").
 */
class ApiClientFailoverTest {

  private static final String PATH = "/v1/tenants/t1/namespaces/n1";

  private FakeServer next;

  @BeforeEach
  void startNextNode() throws Exception {
    next =
        FakeServer.start(
            exchange -> {
              if (exchange.getRequestMethod().equals("GET")) {
                FakeServer.answer(exchange, 200, "{\"metadata\":{\"name\":\"n1\"}}");
              } else {
                FakeServer.created(exchange);
              }
            });
  }

  @AfterEach
  void stop() {
    next.close();
  }

  @Test
  void aWriteWhoseConnectionBreaksAfterSendingIsNotSentToAnotherNode() throws Exception {
    try (FakeServer gone = FakeServer.start(FakeServer::hangUp)) {
      assertThatThrownBy(() -> client(gone.url()).send(put()))
          .isInstanceOf(OutcomeUnknownException.class)
          .hasMessageContaining("PUT " + PATH + " may or may not have been stored")
          .hasMessageContaining("read it before trying again")
          .extracting(e -> ((OutcomeUnknownException) e).exitCode())
          .isEqualTo(ExitCodes.UNREACHABLE);
      assertThat(gone.requests()).containsExactly("PUT " + PATH);
      assertThat(next.requests()).isEmpty();
    }
  }

  @Test
  void aWriteWithoutAnAnswerWithinTheRequestTimeoutIsNotSentToAnotherNode() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      ApiClient api =
          FakeServer.client(
              Map.of("CPCTL_REQUEST_TIMEOUT", "1"),
              "http://127.0.0.1:" + silent.getLocalPort(),
              next.url());
      assertThatThrownBy(() -> api.send(put()))
          .isInstanceOf(OutcomeUnknownException.class)
          .hasMessageContaining("no answer within 1 s");
      assertThat(next.requests()).isEmpty();
    }
  }

  @Test
  void aWriteA503SaysMayOrMayNotBeStoredIsNotSentToAnotherNode() throws Exception {
    try (FakeServer broken =
        unavailable(
            "the connection to the database broke during the commit; the write may or may not be"
                + " stored; read it before retrying")) {
      assertThatThrownBy(() -> client(broken.url()).send(put()))
          .isInstanceOf(OutcomeUnknownException.class);
      assertThat(next.requests()).isEmpty();
    }
  }

  @Test
  void aWriteA503SaysNothingWasWrittenGoesToTheNextNode() throws Exception {
    try (FakeServer full =
        unavailable("the write queue is full; nothing was written; retry in a moment")) {
      assertThat(client(full.url()).send(put()).status()).isEqualTo(201);
      assertThat(next.requests()).containsExactly("PUT " + PATH);
    }
  }

  @Test
  void aWriteANodeWithoutLeaderRefusedGoesToTheNextNode() throws Exception {
    try (FakeServer leaderless =
        unavailable(
            "no leader is known (an election is in progress or there is no quorum); retry"
                + " shortly")) {
      assertThat(client(leaderless.url()).send(put()).status()).isEqualTo(201);
      assertThat(next.requests()).containsExactly("PUT " + PATH);
    }
  }

  @Test
  void aWriteARefusedConnectionNeverSentGoesToTheNextNode() throws Exception {
    ApiClient api = client(FakeServer.refusingUrl());
    assertThat(api.send(put()).status()).isEqualTo(201);
    assertThat(next.requests()).containsExactly("PUT " + PATH);
  }

  @Test
  void aWriteOnAFollowerIsSentOnceToTheLeaderItNamesWhichServesTheNextRequests() throws Exception {
    try (FakeServer follower =
        FakeServer.start(
            exchange ->
                FakeServer.answer(
                    exchange,
                    503,
                    "{\"status\":503,\"code\":\"not_leader\",\"detail\":\"this node is not the"
                        + " leader; the leader is cp2\",\"leader\":\"cp2\",\"leader_url\":\""
                        + next.url()
                        + "/\"}"))) {
      ApiClient api = client(follower.url());
      assertThat(api.send(put()).status()).isEqualTo(201);
      assertThat(api.currentServer().toString()).isEqualTo(next.url());
      assertThat(follower.requests()).containsExactly("PUT " + PATH);
      assertThat(next.requests()).containsExactly("PUT " + PATH);
    }
  }

  @Test
  void aReadWhoseConnectionBreaksIsAskedOfTheNextNode() throws Exception {
    try (FakeServer gone = FakeServer.start(FakeServer::hangUp)) {
      assertThat(client(gone.url()).send(Call.of("GET", PATH)).status()).isEqualTo(200);
      assertThat(next.requests()).containsExactly("GET " + PATH);
    }
  }

  @Test
  void aDryRunWriteWhoseConnectionBreaksIsAskedOfTheNextNodeSinceItStoresNothing()
      throws Exception {
    try (FakeServer gone = FakeServer.start(FakeServer::hangUp)) {
      assertThat(client(gone.url()).send(put().query("dryRun", "All")).status()).isEqualTo(201);
      assertThat(next.requests()).containsExactly("PUT " + PATH);
    }
  }

  @Test
  void aWriteNoNodeAcceptedAConnectionForIsNotServedRatherThanUnknown() throws Exception {
    ApiClient api = FakeServer.client(Map.of(), FakeServer.refusingUrl(), FakeServer.refusingUrl());
    assertThatThrownBy(() -> api.send(put()))
        .isInstanceOf(NotServedException.class)
        .hasMessageContaining("connection refused");
  }

  /** A node that answers every request 503 {@code unavailable} with {@code detail}. */
  private static FakeServer unavailable(String detail) throws IOException {
    return FakeServer.start(exchange -> FakeServer.problem(exchange, 503, "unavailable", detail));
  }

  private ApiClient client(String first) {
    return FakeServer.client(Map.of("CPCTL_REQUEST_TIMEOUT", "5"), first, next.url());
  }

  private static Call put() {
    return Call.of("PUT", PATH)
        .body(JsonNodeFactory.instance.objectNode().put("kind", "Namespace"))
        .tenant("t1");
  }
}

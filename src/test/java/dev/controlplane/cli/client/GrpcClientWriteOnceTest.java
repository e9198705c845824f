package dev.controlplane.cli.client;

import static dev.controlplane.cli.client.TestClients.create;
import static dev.controlplane.cli.client.TestClients.list;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import io.grpc.Status;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A write whose outcome is unknown is not sent again to another node: only a write that certainly
 * reached no node (the connection was refused) or that a follower refused moves on. It ends with
 * exit 4 as an outcome-unknown failure (a plain CliException, which apply counts as unknown), not
 * as the server's refusal. Reads move on whatever made a node unavailable.
 */
class GrpcClientWriteOnceTest {

  private static final Status MAY_BE_STORED =
      Status.UNAVAILABLE.withDescription(
          "the write started but did not finish in time, so it may or may not be stored; read it"
              + " before retrying");

  @Test
  void aWriteThatMayOrMayNotBeStoredIsNotSentToAnotherNode() throws Exception {
    try (LoopbackNode first =
        LoopbackNode.plaintext(ScriptedAdmin.failing(MAY_BE_STORED.asRuntimeException()))) {
      CliException failure = createEndingOn(first.hostPort(), Map.of());

      assertThat(failure.getMessage()).contains("may or may not be stored");
    }
  }

  @Test
  void aWriteWhoseDeadlineRanOutIsNotSentToAnotherNode() throws Exception {
    try (LoopbackNode first = LoopbackNode.plaintext(ScriptedAdmin.silent())) {
      CliException failure = createEndingOn(first.hostPort(), Map.of("CPCTL_REQUEST_TIMEOUT", "1"));

      assertThat(failure.getMessage()).contains("DEADLINE_EXCEEDED");
    }
  }

  @Test
  void aWriteWhoseConnectionBrokeAfterItWasSentIsNotSentToAnotherNode() throws Exception {
    try (DropsAfterRequest first = new DropsAfterRequest()) {
      createEndingOn(first.hostPort(), Map.of());

      assertThat(first.requests).hasValue(1);
    }
  }

  @Test
  void aWriteToANodeThatRefusesTheConnectionGoesToTheNextNode() throws Exception {
    try (LoopbackNode second = LoopbackNode.plaintext(ScriptedAdmin.answering("next"));
        GrpcClient client = TestClients.plaintext(LoopbackNode.refusing(), second.hostPort())) {
      assertThat(create(client)).isEqualTo("next");
    }
  }

  /** A follower that knows no leader names none, but says that it wrote nothing. */
  @Test
  void aWriteRefusedWithNothingWrittenGoesToTheNextNode() throws Exception {
    Status noLeader =
        Status.UNAVAILABLE.withDescription(
            "no leader is known (an election is in progress or there is no quorum); nothing was"
                + " written; retry shortly");
    try (LoopbackNode first =
            LoopbackNode.plaintext(ScriptedAdmin.failing(noLeader.asRuntimeException()));
        LoopbackNode second = LoopbackNode.plaintext(ScriptedAdmin.answering("next"));
        GrpcClient client = TestClients.plaintext(first.hostPort(), second.hostPort())) {
      assertThat(create(client)).isEqualTo("next");
    }
  }

  @Test
  void aReadGoesToTheNextNodeWhateverMadeTheFirstUnavailable() throws Exception {
    try (LoopbackNode first =
            LoopbackNode.plaintext(ScriptedAdmin.failing(MAY_BE_STORED.asRuntimeException()));
        DropsAfterRequest dropping = new DropsAfterRequest();
        LoopbackNode last = LoopbackNode.plaintext(ScriptedAdmin.answering("last"));
        GrpcClient client =
            TestClients.plaintext(first.hostPort(), dropping.hostPort(), last.hostPort())) {
      assertThat(list(client)).isEqualTo("last");
    }
  }

  /**
   * A CreateStream to {@code first}, with a node after it that would answer: it must end on {@code
   * first} with an unknown outcome, never reaching the other node.
   */
  private static CliException createEndingOn(String first, Map<String, String> env)
      throws Exception {
    ScriptedAdmin next = ScriptedAdmin.answering("next");
    try (LoopbackNode second = LoopbackNode.plaintext(next);
        GrpcClient client =
            TestClients.client(env, Optional.empty(), Optional.empty(), first, second.hostPort())) {
      CliException failure = catchThrowableOfType(CliException.class, () -> create(client));

      assertThat(next.calls).as("sent again to the next node").hasValue(0);
      assertThat(failure).as("an unknown outcome, not the server's refusal").isNotNull();
      assertThat(failure).isNotInstanceOf(GrpcException.class);
      assertThat(failure.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
      assertThat(failure.getMessage()).startsWith(first + ": ").contains("outcome is unknown");
      return failure;
    }
  }
}

package dev.controlplane.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dev.controlplane.cli.FakeServer;
import dev.controlplane.cli.InProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An apply that stops because a server stopped answering still reports the objects that were sent
 * with the one that got no answer and were written, sends nothing more, and says what is unknown
 * and what was never attempted: re-running the file must not be a guess.
 */
class ApplyStoppedPartWayTest {

  private Path file;

  @AfterEach
  void removeFile() throws IOException {
    if (file != null) {
      Files.deleteIfExists(file);
    }
  }

  @Test
  void objectsWrittenBesideTheOneWithoutAnAnswerAreReportedBeforeTheRunEnds() throws Exception {
    // n2 goes unanswered only once the three others are written: they were sent with it.
    CountDownLatch othersWritten = new CountDownLatch(3);
    try (FakeServer server = FakeServer.start(losing("n2", othersWritten))) {
      InProcess.Run run = apply(namespaces(4), server.url(), "--parallel", "4");
      assertThat(run.exit()).as(run.err()).isEqualTo(4);
      assertThat(run.out()).contains("n1").contains("n3").contains("n4").doesNotContain("n2");
      assertThat(run.err())
          .contains("3 of 4 objects applied as listed above")
          .contains("1 whose outcome is unknown: namespace/t1/n2")
          .contains("0 not attempted");
    }
  }

  @Test
  void aWriteWhoseConnectionBrokeIsReportedAsUnknownNotAsAConflictWithItselfOnTheNextNode()
      throws Exception {
    Set<String> stored = ConcurrentHashMap.newKeySet();
    FakeServer.Handler node = exchange -> storeOnce(exchange, stored);
    try (FakeServer first =
            FakeServer.start(
                exchange -> {
                  if (isGet(exchange)) {
                    node.handle(exchange);
                  } else {
                    // Stored, and then the node goes away before it can answer.
                    stored.add(exchange.getRequestURI().getPath());
                    FakeServer.hangUp(exchange);
                  }
                });
        FakeServer second = FakeServer.start(node)) {
      InProcess.Run run = apply(namespaces(1), first.url() + "," + second.url());
      assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(4);
      assertThat(run.out() + run.err()).doesNotContain("conflict");
      assertThat(run.err())
          .contains("may or may not have been stored")
          .contains("1 whose outcome is unknown: namespace/t1/n1");
      assertThat(second.requests()).noneMatch(r -> r.startsWith("PUT"));
    }
  }

  @Test
  void objectsNotStartedWhenTheRunStopsAreNeitherSentNorUnknown() throws Exception {
    try (FakeServer server = FakeServer.start(losing("n2", new CountDownLatch(0)))) {
      InProcess.Run run = apply(namespaces(3), server.url(), "--parallel", "1");
      assertThat(run.exit()).as(run.err()).isEqualTo(4);
      assertThat(run.out()).contains("namespace/t1/n1 created").doesNotContain("n3");
      assertThat(run.err())
          .contains("1 of 3 objects applied as listed above")
          .contains("1 whose outcome is unknown: namespace/t1/n2")
          .contains("1 not attempted");
      assertThat(server.requests()).noneMatch(r -> r.endsWith("/n3"));
    }
  }

  @Test
  void objectsNoServerAcceptedAConnectionForAreNotAttemptedRatherThanUnknown() throws Exception {
    InProcess.Run run = apply(namespaces(2), FakeServer.refusingUrl(), "--parallel", "2");
    assertThat(run.exit()).as(run.err()).isEqualTo(4);
    assertThat(run.err())
        .contains("connection refused")
        .contains("0 of 2 objects applied as listed above")
        .contains("0 whose outcome is unknown")
        .contains("2 not attempted");
  }

  /**
   * A node on which nothing exists yet, which creates every object but {@code lost}: that one's
   * connection breaks, once {@code othersFirst} objects have been created.
   */
  private static FakeServer.Handler losing(String lost, CountDownLatch othersFirst) {
    return exchange -> {
      if (isGet(exchange)) {
        notFound(exchange);
      } else if (name(exchange).equals(lost)) {
        awaitQuietly(othersFirst);
        FakeServer.hangUp(exchange);
      } else {
        FakeServer.created(exchange);
        othersFirst.countDown();
      }
    };
  }

  /** A node that stores each object once; a create of a stored one is a conflict. */
  private static void storeOnce(HttpExchange exchange, Set<String> stored) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (isGet(exchange)) {
      if (stored.contains(path)) {
        FakeServer.answer(
            exchange,
            200,
            "{\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                + name(exchange)
                + "\",\"tenant\":\"t1\",\"version\":1},\"spec\":{}}");
      } else {
        notFound(exchange);
      }
    } else if (!stored.add(path)) {
      FakeServer.problem(exchange, 409, "conflict", "metadata.version 0 is not the current 1");
    } else {
      FakeServer.created(exchange);
    }
  }

  private InProcess.Run apply(String yaml, String servers, String... extra) throws IOException {
    file = Files.createTempFile("apply-stopped", ".yaml");
    Files.writeString(file, yaml);
    String[] args = {"-s", servers, "apply", "-f", file.toString()};
    String[] all = java.util.Arrays.copyOf(args, args.length + extra.length);
    System.arraycopy(extra, 0, all, args.length, extra.length);
    return InProcess.cpctl(Map.of("CPCTL_TOKEN", "t", "CPCTL_REQUEST_TIMEOUT", "5"), all);
  }

  private static String namespaces(int count) {
    StringBuilder yaml = new StringBuilder();
    for (int i = 1; i <= count; i++) {
      yaml.append("apiVersion: controlplane/v1\nkind: Namespace\nmetadata:\n  name: n")
          .append(i)
          .append("\n  tenant: t1\nspec: {}\n---\n");
    }
    return yaml.toString();
  }

  private static boolean isGet(HttpExchange exchange) {
    return exchange.getRequestMethod().equals("GET");
  }

  private static String name(HttpExchange exchange) {
    String path = exchange.getRequestURI().getPath();
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static void notFound(HttpExchange exchange) throws IOException {
    FakeServer.problem(exchange, 404, "not_found", "absent");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

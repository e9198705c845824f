package dev.controlplane.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.controlplane.cli.FakeServer;
import dev.controlplane.cli.client.ApiException;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.Lister;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code apply --prune} deletes, from the lists the server answers. */
class PrunerTest {

  private static final String EMPTY = "{\"items\":[]}";

  @Test
  void aNamespaceThatDoesNotExistYetHasNothingToPruneWhileTheOthersAreStillListed()
      throws Exception {
    try (FakeServer server =
        FakeServer.start(
            exchange -> {
              switch (exchange.getRequestURI().getPath()) {
                case "/v1/tenants/t1/namespaces" -> FakeServer.answer(exchange, 200, items("old"));
                case "/v1/tenants/t1/namespaces/old/streams" ->
                    FakeServer.answer(exchange, 200, items("s1"));
                case "/v1/tenants/t1/namespaces/new/streams" ->
                    FakeServer.problem(exchange, 404, "not_found", "namespace t1/new not found");
                default -> FakeServer.answer(exchange, 200, EMPTY);
              }
            })) {
      List<ResourceRef> candidates =
          pruner(server)
              .candidates(plan(ResourceRef.tenant("t1"), ResourceRef.namespace("t1", "new")));
      assertThat(candidates)
          .containsExactly(
              ResourceRef.of(Kind.STREAM, "t1", "old", "s1"), ResourceRef.namespace("t1", "old"));
    }
  }

  @Test
  void aListTheServerRefusesForAnotherReasonStillEndsThePrune() throws Exception {
    try (FakeServer server =
        FakeServer.start(
            exchange -> FakeServer.problem(exchange, 403, "forbidden", "not allowed to list"))) {
      assertThatThrownBy(() -> pruner(server).candidates(plan(ResourceRef.tenant("t1"))))
          .isInstanceOf(ApiException.class)
          .hasMessageContaining("forbidden");
    }
  }

  private static Pruner pruner(FakeServer server) {
    return new Pruner(new Lister(FakeServer.client(Map.of(), server.url())));
  }

  private static List<ApplyPlan.Item> plan(ResourceRef... refs) {
    return java.util.Arrays.stream(refs)
        .map(r -> new ApplyPlan.Item(r, JsonNodeFactory.instance.objectNode(), "test"))
        .toList();
  }

  private static String items(String name) {
    return "{\"items\":[{\"metadata\":{\"name\":\"" + name + "\"}}]}";
  }
}

package dev.controlplane.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.SourceDocument;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApplyPlanTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static List<SourceDocument> docs(String... yaml) throws Exception {
    List<SourceDocument> out = new ArrayList<>();
    for (int i = 0; i < yaml.length; i++) {
      JsonNode doc = YAML.readTree(yaml[i]);
      out.add(new SourceDocument("f#" + (i + 1), doc));
    }
    return out;
  }

  @Test
  void objectsGoBrokersFirstThenTenantsNamespacesStreamsKeepingTheInputOrderWithinEach()
      throws Exception {
    ApplyPlan plan =
        ApplyPlan.of(
            docs(
                "{kind: Stream, metadata: {name: s1, tenant: t, namespace: n}}",
                "{kind: Namespace, metadata: {name: n, tenant: t}}",
                "{kind: Stream, metadata: {name: s0, tenant: t, namespace: n}}",
                "{kind: Tenant, metadata: {name: t}}",
                "{kind: Broker, metadata: {name: b}}",
                "{kind: Tenant, metadata: {name: a}}"),
            null,
            null);
    assertThat(plan.items().stream().map(i -> i.ref().display()))
        .containsExactly(
            "broker/b", "tenant/t", "tenant/a", "namespace/t/n", "stream/t/n/s1", "stream/t/n/s0");
    assertThat(plan.levels()).hasSize(4);
    assertThat(plan.itemsForDelete().get(0).ref().kind()).isEqualTo(Kind.STREAM);
    assertThat(plan.itemsForDelete().get(plan.size() - 1).ref().kind()).isEqualTo(Kind.BROKER);
  }

  @Test
  void bridgesComeAfterTheStreamsTheyNameAndGoFirstOnDelete() throws Exception {
    ApplyPlan plan =
        ApplyPlan.of(
            docs(
                "{kind: Bridge, metadata: {name: eu-us, tenant: ignored}}",
                "{kind: Stream, metadata: {name: s, tenant: t, namespace: n}}",
                "{kind: Tenant, metadata: {name: t}}"),
            "t",
            "n");
    assertThat(plan.invalid()).isEmpty();
    assertThat(plan.items().stream().map(i -> i.ref().display()))
        .containsExactly("tenant/t", "stream/t/n/s", "bridge/eu-us");
    assertThat(plan.items().get(2).ref().path()).isEqualTo("/v1/bridges/eu-us");
    assertThat(plan.itemsForDelete().get(0).ref().display()).isEqualTo("bridge/eu-us");
  }

  @Test
  void documentsWithoutAKnownKindOrIdentityAreInvalidAndPlacementsAreReadOnly() throws Exception {
    ApplyPlan plan =
        ApplyPlan.of(
            docs(
                "{kind: Gadget, metadata: {name: g}}",
                "{metadata: {name: nokind}}",
                "{kind: Tenant, metadata: {}}",
                "{kind: Stream, metadata: {name: s, tenant: t}}",
                "{kind: ShardPlacement, metadata: {stream: s, tenant: t, namespace: n}}",
                "just text",
                "{kind: Tenant, metadata: {name: fine}}"),
            null,
            null);
    assertThat(plan.size()).isEqualTo(1);
    assertThat(plan.invalid())
        .extracting(Result::detail)
        .containsExactly(
            "kind Gadget is not one apply writes (Tenant, Namespace, Stream, Broker)",
            "kind (missing) is not one apply writes (Tenant, Namespace, Stream, Broker)",
            "missing metadata.name",
            "missing metadata.namespace (or --namespace)",
            "ShardPlacement is read-only: placements change through cpctl streams rebalance",
            "not an object");
    assertThat(plan.invalid()).allMatch(r -> r.outcome() == Outcome.INVALID);
  }

  @Test
  void theCommandsTenantAndNamespaceFillIdentitiesTheDocumentsLeaveOut() throws Exception {
    ApplyPlan plan =
        ApplyPlan.of(
            docs(
                "{kind: Stream, metadata: {name: s}}",
                "{kind: Namespace, metadata: {name: n, tenant: other}}"),
            "acme",
            "pay");
    assertThat(plan.items().stream().map(i -> i.ref().display()))
        .containsExactly("namespace/other/n", "stream/acme/pay/s");
  }
}

package dev.controlplane.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.UpdateType;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuditEntriesTest {

  private static final Stream STREAM = new Stream("acme", "orders", "payments", null, null, 7);
  private static final ShardPlacement PLACEMENT =
      new ShardPlacement("acme", "orders", "payments", List.of(), 8);

  @Test
  void aStreamDeletionIsNamedByTheStreamThoughItsPlacementGoesFirst() {
    AuditEntry entry =
        AuditEntries.of(
            List.of(
                new MetadataUpdate(8, UpdateType.DELETE, PLACEMENT, PLACEMENT),
                new MetadataUpdate(9, UpdateType.DELETE, STREAM, STREAM)));

    assertThat(entry.operation()).isEqualTo("stream.delete");
    assertThat(entry.action()).isEqualTo("delete");
    assertThat(entry.eventType()).isEqualTo("metadata");
    assertThat(entry.tenant()).isEqualTo("acme");
    assertThat(entry.namespace()).isEqualTo("orders");
    assertThat(entry.stream()).isEqualTo("payments");
    assertThat(entry.resource()).isEqualTo("stream:acme/orders/payments");
    assertThat(entry.metadata()).containsEntry("changes", 2).containsEntry("kind", "Stream");
  }

  @Test
  void aPlacementChangeAloneIsAPlacementUpdate() {
    AuditEntry entry =
        AuditEntries.of(List.of(new MetadataUpdate(8, UpdateType.UPDATE, PLACEMENT, PLACEMENT)));

    assertThat(entry.operation()).isEqualTo("shard_placement.update");
    assertThat(entry.stream()).isEqualTo("payments");
    assertThat(entry.metadata()).doesNotContainKey("changes");
  }

  @Test
  void aNamespaceHasNoStream() {
    Namespace ns = new Namespace("acme", "orders", "", null, 3);
    AuditEntry entry = AuditEntries.of(List.of(new MetadataUpdate(3, UpdateType.CREATE, ns, null)));

    assertThat(entry.operation()).isEqualTo("namespace.create");
    assertThat(entry.namespace()).isEqualTo("orders");
    assertThat(entry.stream()).isNull();
    assertThat(entry.resource()).isEqualTo("namespace:acme/orders");
  }
}

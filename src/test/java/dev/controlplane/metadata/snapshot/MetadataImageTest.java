package dev.controlplane.metadata.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceId;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.model.UpdateType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MetadataImageTest {

  private static final String[] NAMES = {"a", "b", "c", "a-1", "a.2", "z9", "m_x", "0"};

  /**
   * Generates a change log the way the change log writes it: each update one version after the
   * previous one, {@code previous} null for a CREATE and the prior resource for an UPDATE or
   * DELETE.
   */
  private static List<MetadataUpdate> randomLog(Random random, int length) {
    TreeMap<ResourceId, Resource> current = new TreeMap<>();
    List<MetadataUpdate> log = new ArrayList<>();
    for (long version = 1; version <= length; version++) {
      int dice = random.nextInt(100);
      MetadataUpdate update = null;
      if (current.isEmpty() || dice < 45) {
        Resource created = newResource(random, version);
        if (!current.containsKey(created.id())) {
          update = new MetadataUpdate(version, UpdateType.CREATE, created, null);
        }
      }
      if (update == null && !current.isEmpty() && dice < 75) {
        Resource prior = pick(random, current);
        update =
            new MetadataUpdate(version, UpdateType.UPDATE, changed(prior, random, version), prior);
      }
      if (update == null && !current.isEmpty()) {
        Resource prior = pick(random, current);
        update = new MetadataUpdate(version, UpdateType.DELETE, prior, prior);
      }
      if (update
          == null) { // empty and the generated name clashed: cannot happen, but keep versions dense
        Resource created = newResource(random, version);
        update = new MetadataUpdate(version, UpdateType.CREATE, created, null);
      }
      if (update.type() == UpdateType.DELETE) {
        current.remove(update.resource().id());
      } else {
        current.put(update.resource().id(), update.resource());
      }
      log.add(update);
    }
    return log;
  }

  private static Resource pick(Random random, TreeMap<ResourceId, Resource> current) {
    List<Resource> all = new ArrayList<>(current.values());
    return all.get(random.nextInt(all.size()));
  }

  private static Resource newResource(Random random, long version) {
    String name = NAMES[random.nextInt(NAMES.length)];
    return switch (random.nextInt(3)) {
      case 0 -> new Tenant(name, "t" + version, null, null, version);
      case 1 ->
          new Namespace(NAMES[random.nextInt(NAMES.length)], name, "n" + version, null, version);
      default ->
          new Broker(
              name,
              "h" + version + ":1",
              "r",
              "z" + random.nextInt(3),
              null,
              Broker.Status.ACTIVE,
              version);
    };
  }

  private static Resource changed(Resource prior, Random random, long version) {
    if (prior instanceof Tenant t) {
      return new Tenant(
          t.name(),
          "t" + version,
          new Tenant.TenantQuotas((long) random.nextInt(10), null, null),
          null,
          version);
    }
    if (prior instanceof Namespace n) {
      return new Namespace(n.tenant(), n.name(), "n" + version, null, version);
    }
    Broker b = (Broker) prior;
    Broker.Status status = Broker.Status.values()[random.nextInt(Broker.Status.values().length)];
    return new Broker(
        b.name(), "h" + version + ":1", b.region(), b.availabilityZone(), null, status, version);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 42, 1234, 987654321})
  void undoingTheLogNewestFirstRevisitsEveryReplayedVersion(long seed) {
    List<MetadataUpdate> log = randomLog(new Random(seed), 300);
    assertThat(log)
        .extracting(MetadataUpdate::type)
        .contains(UpdateType.CREATE, UpdateType.UPDATE, UpdateType.DELETE);

    MetadataImage image = MetadataImage.empty();
    List<Map<ResourceId, Resource>> recorded = new ArrayList<>();
    recorded.add(new TreeMap<>(image.asMap()));
    for (MetadataUpdate update : log) {
      image = image.replay(update);
      assertEquals(update.version(), image.version());
      recorded.add(new TreeMap<>(image.asMap()));
    }
    assertEquals(log.size(), image.version());

    for (int i = log.size() - 1; i >= 0; i--) {
      image = image.undo(log.get(i));
      long version = log.get(i).version() - 1;
      assertEquals(version, image.version());
      assertEquals(recorded.get((int) version), image.asMap(), "image at version " + version);
      assertEquals(recorded.get((int) version).size(), image.size());
    }
    assertThat(image.asMap()).isEmpty();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {7, 99})
  void imageRolledBackToAPastVersionEqualsReplayingTheLogToThatVersion(long seed) {
    Random random = new Random(seed);
    List<MetadataUpdate> log = randomLog(random, 200);
    MetadataImage head = MetadataImage.empty();
    for (MetadataUpdate u : log) {
      head = head.replay(u);
    }

    for (int trial = 0; trial < 20; trial++) {
      int target = random.nextInt(log.size() + 1);
      MetadataImage rolledBack = MetadataImage.of(head.version(), head.asMap().values());
      for (int i = log.size() - 1; i >= target; i--) {
        rolledBack = rolledBack.undo(log.get(i));
      }
      MetadataImage replayed = MetadataImage.empty();
      for (MetadataUpdate u : log.subList(0, target)) {
        replayed = replayed.replay(u);
      }
      assertEquals(target, rolledBack.version());
      assertEquals(replayed.asMap(), rolledBack.asMap(), "version " + target);
    }
  }

  @Test
  void replayedImageHoldsTheLatestResourceAndForgetsDeletedOnes() {
    Tenant v1 = new Tenant("acme", "first", null, null, 1);
    Tenant v2 = new Tenant("acme", "second", null, null, 2);
    Broker b = new Broker("b1", "h:1", "r", "z", null, Broker.Status.ACTIVE, 3);
    MetadataImage image =
        MetadataImage.empty()
            .replay(new MetadataUpdate(1, UpdateType.CREATE, v1, null))
            .replay(new MetadataUpdate(2, UpdateType.UPDATE, v2, v1))
            .replay(new MetadataUpdate(3, UpdateType.CREATE, b, null))
            .replay(new MetadataUpdate(4, UpdateType.DELETE, v2, v2));
    assertThat(image.asMap()).containsOnlyKeys(b.id());
    image = image.undo(new MetadataUpdate(4, UpdateType.DELETE, v2, v2));
    assertEquals(v2, image.asMap().get(v2.id()));
    image =
        image
            .undo(new MetadataUpdate(3, UpdateType.CREATE, b, null))
            .undo(new MetadataUpdate(2, UpdateType.UPDATE, v2, v1));
    assertThat(image.asMap()).containsExactly(Map.entry(v1.id(), v1));
    assertEquals(1, image.version());
  }

  @Test
  void replayRejectsAnUpdateThatSkipsAVersion() {
    MetadataImage image = MetadataImage.empty();
    Tenant t = new Tenant("acme", null, null, null, 2);
    assertThrows(
        IllegalStateException.class,
        () -> image.replay(new MetadataUpdate(2, UpdateType.CREATE, t, null)));
    assertEquals(0, image.version());
    assertThat(image.asMap()).isEmpty();
  }

  @Test
  void replayRejectsAnUpdateOfTheCurrentOrAnOlderVersion() {
    Tenant t = new Tenant("acme", null, null, null, 5);
    MetadataImage image = MetadataImage.of(5, List.of(t));
    Tenant other = new Tenant("globex", null, null, null, 5);
    assertThrows(
        IllegalStateException.class,
        () -> image.replay(new MetadataUpdate(5, UpdateType.CREATE, other, null)));
    assertThrows(
        IllegalStateException.class,
        () -> image.replay(new MetadataUpdate(4, UpdateType.CREATE, other, null)));
    assertEquals(5, image.version());
    assertThat(image.asMap()).containsOnlyKeys(t.id());
  }

  @Test
  void undoRejectsAnUpdateThatDidNotProduceTheCurrentVersion() {
    Tenant t = new Tenant("acme", null, null, null, 5);
    MetadataImage image = MetadataImage.of(5, List.of(t));
    assertThrows(
        IllegalStateException.class,
        () -> image.undo(new MetadataUpdate(4, UpdateType.CREATE, t, null)));
    assertEquals(5, image.version());
    assertThat(image.asMap()).containsOnlyKeys(t.id());
  }

  @Test
  void ofKindReturnsOnlyThatKindOrderedByKey() {
    List<Resource> all =
        List.of(
            new Tenant("m_x", null, null, null, 1),
            new Broker("a", "h:1", "r", "z", null, Broker.Status.ACTIVE, 2),
            new Tenant("b", null, null, null, 3),
            new Namespace("b", "orders", null, null, 4),
            new Tenant("a.2", null, null, null, 5),
            new Namespace("a", "zeta", null, null, 6),
            new Tenant("a-1", null, null, null, 7),
            new Tenant("0", null, null, null, 8),
            new Namespace("a", "alpha", null, null, 9),
            new Broker("0", "h:1", "r", "z", null, Broker.Status.DOWN, 10),
            new Tenant("a", null, null, null, 11));
    MetadataImage image = MetadataImage.of(11, all);

    List<Resource> tenants = image.ofKind(ResourceKind.TENANT);
    assertThat(tenants).allSatisfy(r -> assertThat(r).isInstanceOf(Tenant.class));
    assertThat(tenants)
        .extracting(Resource::key)
        .containsExactly("0", "a", "a-1", "a.2", "b", "m_x");
    assertThat(image.ofKind(ResourceKind.NAMESPACE))
        .extracting(Resource::key)
        .containsExactly("a/alpha", "a/zeta", "b/orders");
    assertThat(image.ofKind(ResourceKind.BROKER))
        .extracting(Resource::key)
        .containsExactly("0", "a");
    assertThat(image.ofKind(ResourceKind.BROKER))
        .allSatisfy(r -> assertThat(r).isInstanceOf(Broker.class));
    assertThat(image.ofKind(ResourceKind.STREAM)).isEmpty();
    assertThat(image.ofKind(ResourceKind.SHARD_PLACEMENT)).isEmpty();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {5, 11})
  void ofKindPartitionsARandomImage(long seed) {
    MetadataImage image = MetadataImage.empty();
    for (MetadataUpdate u : randomLog(new Random(seed), 150)) {
      image = image.replay(u);
    }
    int total = 0;
    for (ResourceKind kind : ResourceKind.values()) {
      List<Resource> ofKind = image.ofKind(kind);
      assertThat(ofKind).allSatisfy(r -> assertEquals(kind, r.kind()));
      List<String> keys = ofKind.stream().map(Resource::key).toList();
      assertThat(keys).isSorted().doesNotHaveDuplicates();
      total += ofKind.size();
    }
    assertEquals(image.size(), total);
  }

  @Test
  void asMapCannotBeModified() {
    MetadataImage image = MetadataImage.of(1, List.of(new Tenant("acme", null, null, null, 1)));
    assertThrows(UnsupportedOperationException.class, () -> image.asMap().clear());
  }

  @Test
  void replayAndUndoLeaveTheImageTheyStartFromUnchanged() {
    Tenant v1 = new Tenant("acme", "first", null, null, 1);
    MetadataImage before = MetadataImage.of(1, List.of(v1));
    Tenant v2 = new Tenant("acme", "second", null, null, 2);
    MetadataImage after = before.replay(new MetadataUpdate(2, UpdateType.UPDATE, v2, v1));
    assertThat(before.tenant("acme")).contains(v1);
    assertEquals(1, before.version());
    assertThat(after.tenant("acme")).contains(v2);
    MetadataImage back = after.undo(new MetadataUpdate(2, UpdateType.UPDATE, v2, v1));
    assertThat(after.tenant("acme")).contains(v2);
    assertEquals(before.asMap(), back.asMap());
  }
}

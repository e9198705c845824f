package dev.controlplane.metadata.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.DurationValue;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.SizeValue;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.Stream.AckPolicy;
import dev.controlplane.metadata.model.Stream.Durability;
import dev.controlplane.metadata.model.Stream.Retention;
import dev.controlplane.metadata.model.Stream.StreamSpec;
import dev.controlplane.metadata.model.Tenant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Field-by-field mapping of each kind between its document and its record. */
final class ResourceFields {

  /**
   * Bounds the spec leaves open (docs/api.md): generous, but a typo cannot ask for a million
   * shards.
   */
  static final int MAX_SHARDS = 1024;

  static final int MAX_REPLICATION_FACTOR = 16;
  private static final int MAX_TEXT = 1024;

  private ResourceFields() {}

  static Resource read(ResourceKind kind, JsonNode metadata, JsonNode doc, FieldReader r) {
    return switch (kind) {
      case TENANT -> readTenant(metadata, doc, r);
      case NAMESPACE -> readNamespace(metadata, doc, r);
      case STREAM -> readStream(metadata, doc, r);
      case SHARD_PLACEMENT -> readPlacement(metadata, doc, r);
      case BROKER -> BrokerFields.read(metadata, doc, r);
    };
  }

  static void write(Resource resource, ObjectNode metadata, ObjectNode doc) {
    if (resource instanceof Tenant t) {
      writeTenant(t, metadata, doc.putObject("spec"));
    } else if (resource instanceof Namespace n) {
      writeNamespace(n, metadata, doc.putObject("spec"));
    } else if (resource instanceof Stream s) {
      writeStream(s, metadata, doc);
    } else if (resource instanceof ShardPlacement p) {
      writePlacement(p, metadata, doc.putObject("spec"));
    } else {
      BrokerFields.write((Broker) resource, metadata, doc.putObject("spec"));
    }
  }

  private static Tenant readTenant(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "version"));
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec =
        r.object(doc, "spec", "spec", false, Set.of("description", "quotas", "encryption"));
    String description = text(spec, "description", "spec.description", r);
    JsonNode quotas =
        r.object(
            spec,
            "quotas",
            "spec.quotas",
            false,
            Set.of("max_streams", "max_publish_rate", "max_storage"));
    Long maxStreams =
        r.integer(quotas, "max_streams", "spec.quotas.max_streams", false, 0, Long.MAX_VALUE);
    Long maxRate =
        r.integer(
            quotas, "max_publish_rate", "spec.quotas.max_publish_rate", false, 0, Long.MAX_VALUE);
    SizeValue maxStorage = r.size(quotas, "max_storage", "spec.quotas.max_storage");
    JsonNode enc =
        r.object(spec, "encryption", "spec.encryption", false, Set.of("key_id", "rotation_period"));
    String keyId = text(enc, "key_id", "spec.encryption.key_id", r);
    DurationValue rotation = r.duration(enc, "rotation_period", "spec.encryption.rotation_period");
    return new Tenant(
        name,
        description,
        new Tenant.TenantQuotas(maxStreams, maxRate, maxStorage),
        new Tenant.Encryption(keyId, rotation),
        0);
  }

  private static void writeTenant(Tenant t, ObjectNode md, ObjectNode spec) {
    md.put("name", t.name());
    spec.put("description", t.description());
    ObjectNode q = spec.putObject("quotas");
    putIfSet(q, "max_streams", t.quotas().maxStreams());
    putIfSet(q, "max_publish_rate", t.quotas().maxPublishRate());
    if (t.quotas().maxStorage() != null) {
      q.put("max_storage", t.quotas().maxStorage().text());
    }
    ObjectNode e = spec.putObject("encryption");
    if (t.encryption().keyId() != null) {
      e.put("key_id", t.encryption().keyId());
    }
    if (t.encryption().rotationPeriod() != null) {
      e.put("rotation_period", t.encryption().rotationPeriod().text());
    }
  }

  private static Namespace readNamespace(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "tenant", "version"));
    String tenant = r.name(md, "tenant", "metadata.tenant", true);
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec = r.object(doc, "spec", "spec", false, Set.of("description", "quotas"));
    String description = text(spec, "description", "spec.description", r);
    JsonNode quotas =
        r.object(spec, "quotas", "spec.quotas", false, Set.of("max_streams", "max_publish_rate"));
    Long maxStreams =
        r.integer(quotas, "max_streams", "spec.quotas.max_streams", false, 0, Long.MAX_VALUE);
    Long maxRate =
        r.integer(
            quotas, "max_publish_rate", "spec.quotas.max_publish_rate", false, 0, Long.MAX_VALUE);
    return new Namespace(
        tenant, name, description, new Namespace.NamespaceQuotas(maxStreams, maxRate), 0);
  }

  private static void writeNamespace(Namespace n, ObjectNode md, ObjectNode spec) {
    md.put("name", n.name());
    md.put("tenant", n.tenant());
    spec.put("description", n.description());
    ObjectNode q = spec.putObject("quotas");
    putIfSet(q, "max_streams", n.quotas().maxStreams());
    putIfSet(q, "max_publish_rate", n.quotas().maxPublishRate());
  }

  private static Stream readStream(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("name", "namespace", "tenant", "version"));
    String tenant = r.name(md, "tenant", "metadata.tenant", true);
    String namespace = r.name(md, "namespace", "metadata.namespace", true);
    String name = r.name(md, "name", "metadata.name", true);
    JsonNode spec =
        r.object(
            doc,
            "spec",
            "spec",
            true,
            Set.of("shards", "retention", "durability", "replication_factor", "ack_policy"));
    Long shards = r.integer(spec, "shards", "spec.shards", true, 1, MAX_SHARDS);
    JsonNode ret = r.object(spec, "retention", "spec.retention", false, Set.of("time", "size"));
    DurationValue time = r.duration(ret, "time", "spec.retention.time");
    SizeValue size = r.size(ret, "size", "spec.retention.size");
    Durability durability =
        r.enumValue(spec, "durability", "spec.durability", Durability.class, Durability.DURABLE);
    Long rf =
        r.integer(
            spec,
            "replication_factor",
            "spec.replication_factor",
            false,
            1,
            MAX_REPLICATION_FACTOR);
    AckPolicy ack =
        r.enumValue(spec, "ack_policy", "spec.ack_policy", AckPolicy.class, AckPolicy.QUORUM);
    Stream.State state = Stream.State.ACTIVE;
    JsonNode status = doc.get("status");
    if (status != null && status.has("state")) {
      state =
          Stream.WireEnum.fromWire(Stream.State.class, status.get("state").asText())
              .orElse(Stream.State.ACTIVE);
    }
    if (r.hasErrors()) {
      return null;
    }
    StreamSpec streamSpec =
        new StreamSpec(
            shards.intValue(),
            new Retention(time, size),
            durability,
            rf == null ? 1 : rf.intValue(),
            ack);
    return new Stream(tenant, namespace, name, streamSpec, state, 0);
  }

  private static void writeStream(Stream s, ObjectNode md, ObjectNode doc) {
    md.put("name", s.name());
    md.put("namespace", s.namespace());
    md.put("tenant", s.tenant());
    ObjectNode spec = doc.putObject("spec");
    spec.put("shards", s.spec().shards());
    ObjectNode ret = spec.putObject("retention");
    if (s.spec().retention().time() != null) {
      ret.put("time", s.spec().retention().time().text());
    }
    if (s.spec().retention().size() != null) {
      ret.put("size", s.spec().retention().size().text());
    }
    spec.put("durability", s.spec().durability().wire());
    spec.put("replication_factor", s.spec().replicationFactor());
    spec.put("ack_policy", s.spec().ackPolicy().wire());
    doc.putObject("status").put("state", s.state().wire());
  }

  private static ShardPlacement readPlacement(JsonNode md, JsonNode doc, FieldReader r) {
    r.rejectUnknown(md, "metadata", Set.of("stream", "namespace", "tenant", "version"));
    String tenant = r.name(md, "tenant", "metadata.tenant", true);
    String namespace = r.name(md, "namespace", "metadata.namespace", true);
    String stream = r.name(md, "stream", "metadata.stream", true);
    JsonNode spec = r.object(doc, "spec", "spec", true, Set.of("placements"));
    JsonNode list = spec.get("placements");
    List<ShardAssignment> assignments = new ArrayList<>();
    if (list == null || !list.isArray()) {
      r.error("spec.placements", "must be an array");
    } else {
      for (int i = 0; i < list.size(); i++) {
        assignments.add(readAssignment(list.get(i), "spec.placements[" + i + "]", r));
      }
    }
    return r.hasErrors() ? null : new ShardPlacement(tenant, namespace, stream, assignments, 0);
  }

  private static ShardAssignment readAssignment(JsonNode node, String path, FieldReader r) {
    JsonNode a =
        r.object(
            node == null ? null : wrap(node),
            "x",
            path,
            true,
            Set.of("shard_id", "leader", "replicas"));
    Long shardId = r.integer(a, "shard_id", path + ".shard_id", true, 0, MAX_SHARDS - 1);
    String leader = r.name(a, "leader", path + ".leader", true);
    List<String> replicas = new ArrayList<>();
    JsonNode reps = a.get("replicas");
    if (reps == null || !reps.isArray() || reps.isEmpty()) {
      r.error(path + ".replicas", "must be a non-empty array of broker names");
    } else {
      Set<String> seen = new HashSet<>();
      for (JsonNode rep : reps) {
        if (!rep.isTextual() || !Names.isValid(rep.textValue()) || !seen.add(rep.textValue())) {
          r.error(path + ".replicas", "must hold distinct broker names");
        } else {
          replicas.add(rep.textValue());
        }
      }
      if (leader != null && !replicas.contains(leader)) {
        r.error(path + ".leader", "must be one of the replicas");
      }
    }
    return shardId == null ? null : new ShardAssignment(shardId.intValue(), leader, replicas);
  }

  private static void writePlacement(ShardPlacement p, ObjectNode md, ObjectNode spec) {
    md.put("stream", p.stream());
    md.put("namespace", p.namespace());
    md.put("tenant", p.tenant());
    ArrayNode list = spec.putArray("placements");
    for (ShardAssignment a : p.placements()) {
      ObjectNode o = list.addObject();
      o.put("shard_id", a.shardId());
      o.put("leader", a.leader());
      ArrayNode reps = o.putArray("replicas");
      a.replicas().forEach(reps::add);
    }
  }

  static String text(JsonNode parent, String field, String path, FieldReader r) {
    String value = r.string(parent, field, path, false);
    if (value != null && value.length() > MAX_TEXT) {
      r.error(path, "must be at most " + MAX_TEXT + " characters");
      return null;
    }
    return value;
  }

  private static void putIfSet(ObjectNode node, String field, Long value) {
    if (value != null) {
      node.put(field, value);
    }
  }

  static Integer toInt(Long value) {
    return value == null ? null : value.intValue();
  }

  private static JsonNode wrap(JsonNode node) {
    ObjectNode holder = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
    holder.set("x", node);
    return holder;
  }
}

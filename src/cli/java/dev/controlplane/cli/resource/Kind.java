package dev.controlplane.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.CliException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The kinds of the HTTP API (docs/api.md, Documents): their names and aliases on the command line,
 * their place in the tenant / namespace / stream hierarchy, and their table columns.
 */
public enum Kind {
  TENANT(
      "Tenant",
      List.of("tenant", "tenants", "tn"),
      List.of(
          col("NAME", d -> meta(d, "name")),
          col("DESCRIPTION", d -> d.path("spec").path("description").asText()),
          col("MAX-STREAMS", d -> d.path("spec").path("quotas").path("max_streams").asText()),
          col("VERSION", d -> meta(d, "version")))),
  NAMESPACE(
      "Namespace",
      List.of("namespace", "namespaces", "ns"),
      List.of(
          col("TENANT", d -> meta(d, "tenant")),
          col("NAME", d -> meta(d, "name")),
          col("DESCRIPTION", d -> d.path("spec").path("description").asText()),
          col("MAX-STREAMS", d -> d.path("spec").path("quotas").path("max_streams").asText()),
          col("VERSION", d -> meta(d, "version")))),
  STREAM(
      "Stream",
      List.of("stream", "streams", "st"),
      List.of(
          col("TENANT", d -> meta(d, "tenant")),
          col("NAMESPACE", d -> meta(d, "namespace")),
          col("NAME", d -> meta(d, "name")),
          col("SHARDS", d -> d.path("spec").path("shards").asText()),
          col("RF", d -> d.path("spec").path("replication_factor").asText()),
          col("RETENTION", Kind::retention),
          col("STATE", d -> d.path("status").path("state").asText()),
          col("VERSION", d -> meta(d, "version")))),
  PLACEMENT(
      "ShardPlacement",
      List.of("placement", "placements", "shardplacement", "shardplacements"),
      List.of(
          col("TENANT", d -> meta(d, "tenant")),
          col("NAMESPACE", d -> meta(d, "namespace")),
          col("STREAM", d -> meta(d, "stream")),
          col("SHARDS", d -> Integer.toString(d.path("spec").path("placements").size())),
          col("LEADERS", Kind::leaders),
          col("VERSION", d -> meta(d, "version")))),
  BROKER(
      "Broker",
      List.of("broker", "brokers", "br"),
      List.of(
          col("NAME", d -> meta(d, "name")),
          col("ADDRESS", d -> d.path("spec").path("address").asText()),
          col("REGION", d -> d.path("spec").path("region").asText()),
          col("ZONE", d -> d.path("spec").path("availability_zone").asText()),
          col("STATUS", Kind::brokerStatus),
          col("MAX-SHARDS", d -> d.path("spec").path("capacity").path("max_shards").asText()),
          col("VERSION", d -> meta(d, "version")))),
  BRIDGE(
      "Bridge",
      List.of("bridge", "bridges", "bg"),
      List.of(
          col("NAME", d -> meta(d, "name")),
          col("SOURCE", d -> d.path("spec").path("source_region").asText()),
          col("TARGET", d -> d.path("spec").path("target_region").asText()),
          col("STREAMS", d -> Integer.toString(d.path("spec").path("streams").size())),
          col("KEY-ID", d -> d.path("spec").path("encryption").path("key_id").asText()),
          col("VERSION", d -> meta(d, "version"))));

  /** A table column: its header and how a document fills it. */
  public record Column(String header, Function<JsonNode, String> value) {}

  private final String kindName;
  private final List<String> aliases;
  private final List<Column> columns;

  Kind(String kindName, List<String> aliases, List<Column> columns) {
    this.kindName = kindName;
    this.aliases = aliases;
    this.columns = columns;
  }

  /** The {@code kind} of its documents, for example {@code Stream}. */
  public String kindName() {
    return kindName;
  }

  /** The singular lower-case name used in output ({@code stream/acme/payments/orders}). */
  public String singular() {
    return aliases.get(0);
  }

  public List<Column> columns() {
    return columns;
  }

  /** Whether its objects live in a tenant (everything but tenants, brokers and bridges). */
  public boolean inTenant() {
    return this != BROKER && this != TENANT && this != BRIDGE;
  }

  /** Whether its objects live in a namespace. */
  public boolean inNamespace() {
    return this == STREAM || this == PLACEMENT;
  }

  /** The kind a command-line word names: a name or an alias, any case. */
  public static Kind parse(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    return Arrays.stream(values())
        .filter(k -> k.aliases.contains(w) || k.kindName.toLowerCase(Locale.ROOT).equals(w))
        .findFirst()
        .orElseThrow(
            () ->
                CliException.usage(
                    "unknown kind "
                        + word
                        + ": one of tenants, namespaces, streams, placements, brokers, bridges"));
  }

  /** The kind of a document's {@code kind} field, exactly as the API spells it. */
  public static java.util.Optional<Kind> ofDocument(String kind) {
    return Arrays.stream(values()).filter(k -> k.kindName.equals(kind)).findFirst();
  }

  /** Aliases for shell completion. */
  public static List<String> words() {
    return Arrays.stream(values()).map(k -> k.aliases.get(1)).toList();
  }

  private static Column col(String header, Function<JsonNode, String> value) {
    return new Column(header, value);
  }

  static String meta(JsonNode doc, String field) {
    return doc.path("metadata").path(field).asText();
  }

  private static String retention(JsonNode doc) {
    JsonNode r = doc.path("spec").path("retention");
    String time = r.path("time").asText();
    String size = r.path("size").asText();
    return time.isEmpty() ? size : size.isEmpty() ? time : time + "," + size;
  }

  /**
   * A broker's status, and for a down one that the operator drained, that it comes back draining
   * (as kubectl shows a cordoned node: {@code NotReady,SchedulingDisabled}).
   */
  static String brokerStatus(JsonNode doc) {
    JsonNode spec = doc.path("spec");
    String status = spec.path("status").asText();
    return status.equals("down") && spec.path("drain_requested").asBoolean()
        ? status + ",drain-requested"
        : status;
  }

  private static String leaders(JsonNode doc) {
    java.util.TreeMap<String, Integer> counts = new java.util.TreeMap<>();
    doc.path("spec")
        .path("placements")
        .forEach(s -> counts.merge(s.path("leader").asText(), 1, Integer::sum));
    StringBuilder out = new StringBuilder();
    counts.forEach(
        (b, n) -> out.append(out.length() == 0 ? "" : ",").append(b).append('=').append(n));
    return out.toString();
  }
}

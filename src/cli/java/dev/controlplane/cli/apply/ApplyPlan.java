package dev.controlplane.cli.apply;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.ResourceRef;
import dev.controlplane.cli.resource.SourceDocument;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The documents of an apply, checked for what cpctl itself must know (an object, a kind apply can
 * write, an identity) and put in dependency order: brokers' status first (so streams created by the
 * same apply avoid the brokers it drains), then tenants, namespaces, streams, and last bridges,
 * which name streams. Within a level the input order is kept. The server checks everything else.
 */
public final class ApplyPlan {

  /** One object to write. */
  public record Item(ResourceRef ref, JsonNode doc, String origin) {}

  private final TreeMap<Integer, List<Item>> levels = new TreeMap<>();
  private final List<Result> invalid = new ArrayList<>();
  private int size;

  public static ApplyPlan of(
      List<SourceDocument> docs, String defaultTenant, String defaultNamespace) {
    ApplyPlan plan = new ApplyPlan();
    for (SourceDocument source : docs) {
      plan.add(source, defaultTenant, defaultNamespace);
    }
    return plan;
  }

  private void add(SourceDocument source, String defaultTenant, String defaultNamespace) {
    JsonNode doc = source.doc();
    String problem = null;
    Optional<ResourceRef> ref = Optional.empty();
    if (!doc.isObject()) {
      problem = "not an object";
    } else {
      ref = ResourceRef.ofDocument(doc, defaultTenant, defaultNamespace);
      if (ref.isEmpty()) {
        problem =
            "kind "
                + describe(doc.path("kind"))
                + " is not one apply writes (Tenant, Namespace, Stream, Broker)";
      } else if (ref.get().kind() == Kind.PLACEMENT) {
        problem = "ShardPlacement is read-only: placements change through cpctl streams rebalance";
      } else if (ref.get().missingField().isPresent()) {
        problem = "missing " + ref.get().missingField().get();
      }
    }
    if (problem != null) {
      String name =
          ref.map(r -> r.display() + " (" + source.origin() + ")").orElse(source.origin());
      invalid.add(new Result(name, null, Outcome.INVALID, problem, List.of(), null));
      return;
    }
    levels
        .computeIfAbsent(rank(ref.get().kind()), k -> new ArrayList<>())
        .add(new Item(ref.get(), doc, source.origin()));
    size++;
  }

  private static String describe(JsonNode kind) {
    return kind.isMissingNode() || kind.asText().isEmpty() ? "(missing)" : kind.asText();
  }

  static int rank(Kind kind) {
    return switch (kind) {
      case BROKER -> 0;
      case TENANT -> 1;
      case NAMESPACE -> 2;
      case STREAM, PLACEMENT -> 3;
      case BRIDGE -> 4;
    };
  }

  /** The objects to write, level by level. */
  public List<List<Item>> levels() {
    return List.copyOf(levels.values());
  }

  /** Documents refused before sending anything. */
  public List<Result> invalid() {
    return invalid;
  }

  /** Objects to write (invalid documents not counted). */
  public int size() {
    return size;
  }

  /** Every item, in apply order. */
  public List<Item> items() {
    List<Item> all = new ArrayList<>();
    levels.values().forEach(all::addAll);
    return all;
  }

  /** Items in reverse dependency order (streams first), for deleting what the files name. */
  public List<Item> itemsForDelete() {
    List<Item> all = new ArrayList<>(items());
    all.sort(Comparator.comparingInt((Item i) -> rank(i.ref().kind())).reversed());
    return all;
  }
}

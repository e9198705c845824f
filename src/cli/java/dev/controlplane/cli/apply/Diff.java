package dev.controlplane.cli.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a write changes, field by field: {@code spec.retention.time: 7d -> 14d}. Compares the {@code
 * spec} and {@code status} of the object as stored with the object as the server would store it (a
 * dry run's answer), so values are compared as the server normalises them.
 */
public final class Diff {

  private Diff() {}

  public static List<String> between(JsonNode before, JsonNode after) {
    Map<String, String> old = new TreeMap<>();
    Map<String, String> now = new TreeMap<>();
    for (String part : List.of("spec", "status")) {
      flatten(part, before == null ? null : before.get(part), old);
      flatten(part, after == null ? null : after.get(part), now);
    }
    TreeSet<String> fields = new TreeSet<>(old.keySet());
    fields.addAll(now.keySet());
    List<String> changes = new ArrayList<>();
    for (String field : fields) {
      String a = old.getOrDefault(field, "(none)");
      String b = now.getOrDefault(field, "(none)");
      if (!a.equals(b)) {
        changes.add(field + ": " + a + " -> " + b);
      }
    }
    return changes;
  }

  private static void flatten(String path, JsonNode node, Map<String, String> out) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return;
    }
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        flatten(path + "." + e.getKey(), e.getValue(), out);
      }
    } else if (node.isTextual()) {
      if (!node.asText().isEmpty()) {
        out.put(path, node.asText());
      }
    } else {
      out.put(path, node.toString());
    }
  }
}

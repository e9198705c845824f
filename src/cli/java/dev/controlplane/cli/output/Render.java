package dev.controlplane.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.resource.Kind;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.List;

/** Prints objects of one kind in the chosen format; shared by get, delete and apply. */
public final class Render {

  private Render() {}

  public static void objects(Session session, Kind kind, List<JsonNode> docs, OutputFormat format) {
    switch (format) {
      case TABLE -> table(session, kind, docs);
      case NAME -> docs.forEach(d -> session.out().println(ref(kind, d).display()));
      default -> session.printer().list(docs, format);
    }
    session.out().flush();
  }

  /** One object: a table row, its name, or the document itself. */
  public static void object(Session session, Kind kind, JsonNode doc, OutputFormat format) {
    if (format == OutputFormat.YAML || format == OutputFormat.JSON) {
      session.printer().document(doc, format);
    } else {
      objects(session, kind, List.of(doc), format);
    }
  }

  /**
   * Prints {@code doc} as it is when YAML or JSON was asked for; false when the caller should print
   * its table instead.
   */
  public static boolean structured(Session session, JsonNode doc, OutputFormat format) {
    if (format != OutputFormat.YAML && format != OutputFormat.JSON) {
      return false;
    }
    session.printer().document(doc, format);
    return true;
  }

  private static void table(Session session, Kind kind, List<JsonNode> docs) {
    if (docs.isEmpty()) {
      session.err().println("No " + kind.singular() + " found.");
      session.err().flush();
      return;
    }
    Table table = new Table(kind.columns().stream().map(Kind.Column::header).toList());
    for (JsonNode doc : docs) {
      table.row(kind.columns().stream().map(c -> c.value().apply(doc)).toList());
    }
    table.print(session.out());
  }

  public static ResourceRef ref(Kind kind, JsonNode doc) {
    return ResourceRef.ofDocument(doc, "", "")
        .orElse(ResourceRef.of(kind, "", "", doc.path("metadata").path("name").asText()));
  }
}

package dev.controlplane.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.controlplane.metadata.codec.YamlQuoting;
import java.io.PrintWriter;
import java.util.List;

/** Writes documents as YAML or JSON, alone or as a {@code List} (which apply reads back). */
public final class Printer {

  public static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .stringQuotingChecker(new YamlQuoting())
              .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
              .build());
  private static final DefaultPrettyPrinter PRETTY =
      new DefaultPrettyPrinter().withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE);

  private final PrintWriter out;

  public Printer(PrintWriter out) {
    this.out = out;
  }

  /** One document in {@code format} (YAML or JSON; a table format prints YAML). */
  public void document(JsonNode doc, OutputFormat format) {
    out.print(format == OutputFormat.JSON ? json(doc) + "\n" : yaml(doc));
    out.flush();
  }

  /**
   * Several documents as one {@code List} document: {@code apiVersion}, {@code kind: List}, {@code
   * items}, as kubectl prints them; {@code cpctl apply -f} accepts it back.
   */
  public void list(List<JsonNode> items, OutputFormat format) {
    document(asList(items), format);
  }

  public static ObjectNode asList(List<JsonNode> items) {
    ObjectNode list = JSON.createObjectNode();
    list.put("apiVersion", "controlplane/v1");
    list.put("kind", "List");
    ArrayNode array = list.putArray("items");
    items.forEach(array::add);
    return list;
  }

  public static String yaml(JsonNode doc) {
    try {
      return YAML.writeValueAsString(doc);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String json(JsonNode doc) {
    try {
      return JSON.writer(PRETTY).writeValueAsString(doc);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One line of JSON (JSON Lines, for streams of updates). */
  public static String compactJson(JsonNode doc) {
    return doc.toString();
  }

  public PrintWriter out() {
    return out;
  }
}

package dev.controlplane.cli.resource;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.controlplane.cli.CliException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Reads the documents of {@code -f} arguments: a file, a directory (its {@code .yaml}, {@code .yml}
 * and {@code .json} files in name order; with {@code recursive} also those below), or {@code -} for
 * standard input. YAML files may hold many documents separated by {@code ---}; JSON files one
 * object or an array. A {@code List} document ({@code items}, as {@code cpctl get -o yaml} prints
 * one) stands for its items. A file that does not parse is a usage error, before anything is sent.
 */
public final class DocumentReader {

  // A key written twice would otherwise keep its last value and drop the first without a word,
  // and the server, which refuses it, would only ever see the document re-written without it.
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final InputStream stdin;

  public DocumentReader(InputStream stdin) {
    this.stdin = stdin;
  }

  public List<SourceDocument> read(List<String> sources, boolean recursive) {
    List<SourceDocument> out = new ArrayList<>();
    for (String source : sources) {
      if (source.equals("-")) {
        out.addAll(parse("<stdin>", readStdin(), false));
        continue;
      }
      Path path = Path.of(source);
      if (Files.isDirectory(path)) {
        for (Path file : filesIn(path, recursive)) {
          out.addAll(parseFile(file));
        }
      } else if (Files.isRegularFile(path)) {
        out.addAll(parseFile(path));
      } else {
        throw CliException.usage(source + ": no such file or directory");
      }
    }
    return out;
  }

  private static List<Path> filesIn(Path dir, boolean recursive) {
    try (Stream<Path> paths = recursive ? Files.walk(dir) : Files.list(dir)) {
      return paths
          .filter(Files::isRegularFile)
          .filter(DocumentReader::isManifest)
          .sorted()
          .toList();
    } catch (IOException e) {
      throw CliException.usage(dir + ": " + e.getMessage());
    }
  }

  private static boolean isManifest(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
  }

  private static List<SourceDocument> parseFile(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      boolean json = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
      return parse(file.toString(), bytes, json);
    } catch (IOException e) {
      throw CliException.usage(file + ": " + e.getMessage());
    }
  }

  private byte[] readStdin() {
    try {
      return stdin.readAllBytes();
    } catch (IOException e) {
      throw CliException.usage("cannot read standard input: " + e.getMessage());
    }
  }

  /** The documents of one input; JSON is read as JSON, anything else as (multi-document) YAML. */
  static List<SourceDocument> parse(String origin, byte[] bytes, boolean json) {
    List<SourceDocument> out = new ArrayList<>();
    ObjectMapper mapper = json ? JSON : YAML;
    int index = 0;
    try (JsonParser parser = mapper.getFactory().createParser(bytes);
        MappingIterator<JsonNode> docs = mapper.readerFor(JsonNode.class).readValues(parser)) {
      while (docs.hasNextValue()) {
        JsonNode doc = docs.nextValue();
        index++;
        expand(origin + "#" + index, doc, out);
      }
    } catch (JsonProcessingException e) {
      throw CliException.usage(
          origin
              + ": document "
              + (index + 1)
              + " does not parse: "
              + e.getOriginalMessage().replace('\n', ' ')
              + location(e));
    } catch (IOException e) {
      throw CliException.usage(origin + ": " + e.getMessage());
    }
    return out;
  }

  private static void expand(String origin, JsonNode doc, List<SourceDocument> out) {
    if (doc == null || doc.isNull() || doc.isMissingNode()) {
      return; // an empty document, as between two "---"
    }
    if (doc.isArray()) {
      for (int i = 0; i < doc.size(); i++) {
        expand(origin + "[" + i + "]", doc.get(i), out);
      }
    } else if (doc.isObject() && doc.path("kind").asText().equals("List")) {
      JsonNode items = doc.path("items");
      for (int i = 0; i < items.size(); i++) {
        expand(origin + ".items[" + i + "]", items.get(i), out);
      }
    } else {
      out.add(new SourceDocument(origin, doc));
    }
  }

  private static String location(JsonProcessingException e) {
    return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
  }
}

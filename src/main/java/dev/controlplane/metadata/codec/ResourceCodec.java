package dev.controlplane.metadata.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.kind.FieldReader;
import dev.controlplane.metadata.kind.Kinds;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts resources to and from their declarative documents. Reading validates every field (names,
 * enums, durations, sizes, bounds) and reports all problems with their paths; a document that
 * passes is a valid resource.
 */
public final class ResourceCodec {

  public static final String API_VERSION = "controlplane/v1";
  private static final String OTHER_BUILD =
      ": another build wrote it, and every node of a cluster must run the same build"
          + " (docs/operations.md, \"Upgrading to a new build\")";
  private static final Set<String> ENVELOPE =
      Set.of("apiVersion", "kind", "metadata", "spec", "status");

  private final ObjectMapper json;
  private final ObjectMapper yaml;

  public ResourceCodec() {
    this.json = StrictJson.mapper();
    YAMLFactory yamlFactory =
        YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .stringQuotingChecker(new YamlQuoting())
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    this.yaml = new ObjectMapper(yamlFactory);
  }

  public ObjectMapper json() {
    return json;
  }

  /**
   * Parses one document; any syntax error is a validation error, never a server error. A YAML
   * stream of several documents is refused as a whole: applying the first and dropping the rest
   * would lose writes silently.
   */
  public JsonNode parse(byte[] body, DocumentFormat format) {
    try {
      if (format == DocumentFormat.YAML) {
        rejectAnchors(body);
      }
      JsonNode node =
          format == DocumentFormat.YAML ? singleYamlDocument(body) : json.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw ControlPlaneException.validation("body", "is empty");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw ControlPlaneException.validation("body", "is not valid " + format + StrictJson.why(e));
    } catch (IOException e) {
      throw ControlPlaneException.validation("body", "could not be read");
    }
  }

  /**
   * Refuses YAML anchors and aliases ({@code &name}, {@code *name}, merge keys): the parser would
   * store an alias as the anchor's name, something the author did not write.
   */
  private void rejectAnchors(byte[] body) throws IOException {
    try (YAMLParser parser = (YAMLParser) yaml.getFactory().createParser(body)) {
      while (parser.nextToken() != null) {
        if (parser.isCurrentAlias() || parser.getCurrentAnchor() != null) {
          throw ControlPlaneException.validation(
              "body",
              "YAML anchors and aliases (&name, *name) are not accepted; write the value out"
                  + " (line "
                  + parser.currentLocation().getLineNr()
                  + ")");
        }
      }
    }
  }

  /**
   * The only document of a YAML stream; every document is parsed, so a later one is counted. Empty
   * documents (a trailing {@code ---}) are skipped, as kubectl does.
   */
  private JsonNode singleYamlDocument(byte[] body) throws IOException {
    List<JsonNode> documents = new ArrayList<>();
    try (MappingIterator<JsonNode> it = yaml.readerFor(JsonNode.class).readValues(body)) {
      while (it.hasNextValue()) {
        JsonNode document = it.nextValue();
        if (!isEmptyDocument(document)) {
          documents.add(document);
        }
      }
    }
    if (documents.size() > 1) {
      throw ControlPlaneException.validation(
          "body",
          "holds "
              + documents.size()
              + " YAML documents; this request takes exactly one (send each resource to its own"
              + " URL)");
    }
    return documents.isEmpty() ? null : documents.get(0);
  }

  /** What YAML makes of a document with no content: null, or "" (YAMLFactory.builder()'s). */
  private static boolean isEmptyDocument(JsonNode document) {
    return document == null
        || document.isNull()
        || document.isMissingNode()
        || (document.isTextual() && document.textValue().isEmpty());
  }

  /**
   * Reads a resource of {@code expected} kind. {@code pathIdentity} holds the metadata fields the
   * URL fixes (name, tenant, namespace): the document may omit them but may not contradict them.
   */
  public Resource read(JsonNode doc, ResourceKind expected, Map<String, String> pathIdentity) {
    FieldReader r = new FieldReader();
    if (!doc.isObject()) {
      throw ControlPlaneException.validation("body", "must be an object");
    }
    r.rejectUnknown(doc, "", ENVELOPE);
    String apiVersion = r.string(doc, "apiVersion", "apiVersion", true);
    if (apiVersion != null && !API_VERSION.equals(apiVersion)) {
      r.error("apiVersion", "must be " + API_VERSION);
    }
    String kind = r.string(doc, "kind", "kind", true);
    if (kind != null && !expected.kindName().equals(kind)) {
      r.error("kind", "must be " + expected.kindName());
    }
    ObjectNode metadata = withPathIdentity(doc.get("metadata"), pathIdentity, r);
    Resource resource = Kinds.of(expected).read(metadata, doc, r);
    r.throwIfInvalid();
    return resource;
  }

  /** The optimistic-concurrency precondition a client may put in {@code metadata.version}. */
  public java.util.OptionalLong expectedVersion(JsonNode doc) {
    JsonNode v = doc.path("metadata").path("version");
    return v.canConvertToLong() && v.isIntegralNumber()
        ? java.util.OptionalLong.of(v.longValue())
        : java.util.OptionalLong.empty();
  }

  private ObjectNode withPathIdentity(
      JsonNode metadata, Map<String, String> pathIdentity, FieldReader r) {
    ObjectNode merged = json.createObjectNode();
    if (metadata != null && !metadata.isNull()) {
      if (!metadata.isObject()) {
        r.error("metadata", "must be an object");
      } else {
        merged.setAll((ObjectNode) metadata);
      }
    }
    pathIdentity.forEach(
        (field, value) -> {
          JsonNode given = merged.get(field);
          if (given != null && !given.isNull() && !value.equals(given.asText())) {
            r.error(
                "metadata." + field, "must equal the " + field + " in the path (" + value + ")");
          }
          merged.put(field, value);
        });
    return merged;
  }

  /**
   * Reads a document written by {@link #toTree(Resource)} (the change log's payloads), as strictly
   * as a client's: a field this build does not know is refused, not dropped, because the resource
   * would lose it when next rewritten. Such a document was written by another build; the message
   * says so, since it is what a node of an older build meets in a cluster upgraded node by node.
   */
  public Resource readStored(String storedJson) {
    try {
      JsonNode doc = json.readTree(storedJson);
      String version = doc.path("metadata").path("version").asText("?");
      ResourceKind kind =
          ResourceKind.fromKindName(doc.path("kind").asText())
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "the stored document of version "
                              + version
                              + " is of kind '"
                              + doc.path("kind").asText()
                              + "', which this build does not know"
                              + OTHER_BUILD));
      FieldReader r = new FieldReader();
      ObjectNode metadata = (ObjectNode) doc.get("metadata");
      Resource resource = Kinds.of(kind).read(metadata, doc, r);
      if (r.hasErrors()) {
        throw new IllegalStateException(
            "the stored "
                + kind.kindName()
                + " of version "
                + version
                + " is not one this build reads ("
                + r.problems()
                + ")"
                + OTHER_BUILD);
      }
      return resource.withVersion(metadata.path("version").asLong());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored document is not JSON", e);
    }
  }

  public ObjectNode toTree(Resource resource) {
    ObjectNode doc = json.createObjectNode();
    doc.put("apiVersion", API_VERSION);
    doc.put("kind", resource.kind().kindName());
    Kinds.of(resource).writeDocument(resource, doc.putObject("metadata"), doc);
    doc.with("metadata").put("version", resource.version());
    return doc;
  }

  public String toJson(Resource resource) {
    return toJson(toTree(resource));
  }

  public String toJson(JsonNode node) {
    try {
      return json.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public byte[] write(JsonNode node, DocumentFormat format) {
    try {
      return (format == DocumentFormat.YAML ? yaml : json).writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public ArrayNode newArray() {
    return json.createArrayNode();
  }

  public ObjectNode newObject() {
    return json.createObjectNode();
  }
}

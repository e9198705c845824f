package dev.controlplane.metadata.kind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ControlPlaneException.FieldError;
import dev.controlplane.metadata.model.DurationValue;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.metadata.model.SizeValue;
import dev.controlplane.metadata.model.Stream.WireEnum;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads typed fields out of a JSON tree and collects every problem with its dotted path, so that a
 * client learns about all invalid fields at once. Nothing is thrown until {@link
 * #throwIfInvalid()}.
 */
public final class FieldReader {

  private final List<FieldError> errors = new ArrayList<>();

  public void error(String path, String message) {
    errors.add(new FieldError(path, message));
  }

  public boolean hasErrors() {
    return !errors.isEmpty();
  }

  /** Every problem found so far, as {@code path: message; …}. */
  public String problems() {
    return errors.stream()
        .map(e -> e.field() + ": " + e.message())
        .collect(Collectors.joining("; "));
  }

  public void throwIfInvalid() {
    if (!errors.isEmpty()) {
      throw ControlPlaneException.validation(errors);
    }
  }

  /** The object at {@code path}, or an empty object when absent; an error when not an object. */
  public JsonNode object(
      JsonNode parent, String field, String path, boolean required, Set<String> allowed) {
    JsonNode node = parent == null ? null : parent.get(field);
    if (node == null || node.isNull()) {
      if (required) {
        error(path, "is required");
      }
      return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
    if (!node.isObject()) {
      error(path, "must be an object");
      return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
    rejectUnknown(node, path, allowed);
    return node;
  }

  public void rejectUnknown(JsonNode node, String path, Set<String> allowed) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!allowed.contains(name)) {
        error(
            join(path, name),
            "is not a known field (allowed: " + String.join(", ", sorted(allowed)) + ")");
      }
    }
  }

  public String string(JsonNode parent, String field, String path, boolean required) {
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      if (required) {
        error(path, "is required");
      }
      return null;
    }
    if (!node.isTextual()) {
      error(path, "must be a string");
      return null;
    }
    return node.textValue();
  }

  public String name(JsonNode parent, String field, String path, boolean required) {
    String value = string(parent, field, path, required);
    if (value != null && !Names.isValid(value)) {
      error(path, "must be " + Names.RULE);
      return null;
    }
    return value;
  }

  public Long integer(
      JsonNode parent, String field, String path, boolean required, long min, long max) {
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      if (required) {
        error(path, "is required");
      }
      return null;
    }
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      error(path, "must be an integer");
      return null;
    }
    long value = node.longValue();
    if (value < min || value > max) {
      error(path, "must be between " + min + " and " + max);
      return null;
    }
    return value;
  }

  /** An optional boolean; null when absent. */
  public Boolean bool(JsonNode parent, String field, String path) {
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isBoolean()) {
      error(path, "must be true or false");
      return null;
    }
    return node.booleanValue();
  }

  public DurationValue duration(JsonNode parent, String field, String path) {
    String text = string(parent, field, path, false);
    if (text == null) {
      return null;
    }
    var parsed = DurationValue.parse(text);
    if (parsed.isEmpty()) {
      error(path, "must be a duration: " + DurationValue.GRAMMAR);
    }
    return parsed.orElse(null);
  }

  public SizeValue size(JsonNode parent, String field, String path) {
    String text = string(parent, field, path, false);
    if (text == null) {
      return null;
    }
    var parsed = SizeValue.parse(text);
    if (parsed.isEmpty()) {
      error(path, "must be a size: " + SizeValue.GRAMMAR);
    }
    return parsed.orElse(null);
  }

  public <E extends Enum<E> & WireEnum> E enumValue(
      JsonNode parent, String field, String path, Class<E> type, E defaultValue) {
    String text = string(parent, field, path, false);
    if (text == null) {
      return defaultValue;
    }
    var value = WireEnum.fromWire(type, text);
    if (value.isEmpty()) {
      String allowed =
          Arrays.stream(type.getEnumConstants())
              .map(WireEnum::wire)
              .collect(Collectors.joining(", "));
      error(path, "must be one of " + allowed);
      return null;
    }
    return value.get();
  }

  static String join(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  private static List<String> sorted(Set<String> names) {
    return names.stream().sorted().toList();
  }
}

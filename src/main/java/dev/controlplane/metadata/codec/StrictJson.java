package dev.controlplane.metadata.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * How request bodies are read: one value and nothing after it, each field once. Jackson's defaults
 * take the first of {@code {"a":1}{"b":2}} and the last of a field named twice, so part of what a
 * client sent would be dropped without a word.
 */
public final class StrictJson {

  private StrictJson() {}

  /** A mapper that refuses a field named twice and content after the value. */
  public static ObjectMapper mapper() {
    return JsonMapper.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();
  }

  /**
   * What to tell the client about a body that did not parse, after "is not valid JSON" (or YAML):
   * the line, and the two refusals above in words rather than the parser's.
   */
  public static String why(JsonProcessingException e) {
    String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
    String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    if (message.startsWith("Duplicate field")) {
      return where + ": " + message.replace("Duplicate field", "the field") + " appears twice";
    }
    if (message.startsWith("Trailing token")) {
      return where + ": there is content after the document";
    }
    return where;
  }
}

package dev.controlplane.metadata.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.SortedMap;
import java.util.TreeMap;

/** Reads the JSON column brokers.labels ({"rack": "r1"}); the write pipeline writes it. */
final class LabelsJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<TreeMap<String, String>> TYPE = new TypeReference<>() {};

  private LabelsJson() {}

  static SortedMap<String, String> read(String json) {
    if (json == null || json.isBlank()) {
      return new TreeMap<>();
    }
    try {
      return MAPPER.readValue(json, TYPE);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("brokers.labels is not a JSON object of strings", e);
    }
  }
}

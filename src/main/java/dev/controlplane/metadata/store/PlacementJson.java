package dev.controlplane.metadata.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import java.util.ArrayList;
import java.util.List;

/** The JSON column of shard_placements: [{"shard_id":0,"leader":"b1","replicas":["b1","b2"]}]. */
final class PlacementJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private PlacementJson() {}

  static String write(List<ShardAssignment> assignments) {
    ArrayNode list = MAPPER.createArrayNode();
    for (ShardAssignment a : assignments) {
      ObjectNode o = list.addObject();
      o.put("shard_id", a.shardId());
      o.put("leader", a.leader());
      ArrayNode reps = o.putArray("replicas");
      a.replicas().forEach(reps::add);
    }
    return list.toString();
  }

  static List<ShardAssignment> read(String json) {
    try {
      List<ShardAssignment> out = new ArrayList<>();
      for (JsonNode o : MAPPER.readTree(json)) {
        List<String> replicas = new ArrayList<>();
        o.get("replicas").forEach(r -> replicas.add(r.asText()));
        out.add(new ShardAssignment(o.get("shard_id").asInt(), o.get("leader").asText(), replicas));
      }
      return out;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("shard_placements.placements is not JSON", e);
    }
  }
}

package dev.controlplane.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.output.Printer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code cpctl cluster status} warns about, from the nodes' own views. */
class ClusterCommandTest {

  private static JsonNode node(String json) throws Exception {
    return Printer.JSON.readTree(json);
  }

  @Test
  void aNodeThatSeesAnotherDatabaseIsAProblemNamingTheSettingAndTheNodes() throws Exception {
    List<JsonNode> nodes =
        List.of(
            node("{\"node_id\":\"cp1\",\"members_on_other_database\":[\"cp3\"]}"),
            node("{\"node_id\":\"cp3\",\"members_on_other_database\":[\"cp1\"]}"),
            node("{\"endpoint\":\"http://cp2:9080\",\"error\":\"unreachable\"}"));

    assertThat(ClusterCommand.Status.databaseProblem(nodes))
        .hasValueSatisfying(
            problem ->
                assertThat(problem)
                    .contains("SERVICE_CONTROLPLANE_DB_URL")
                    .contains("cp1 sees [\"cp3\"]")
                    .contains("cp3 sees [\"cp1\"]"));
  }

  @Test
  void nodesOnOneDatabaseAndNodesOfAnOlderBuildAreNoProblem() throws Exception {
    List<JsonNode> nodes =
        List.of(
            node("{\"node_id\":\"cp1\",\"members_on_other_database\":[]}"),
            node("{\"node_id\":\"cp2\"}"));

    assertThat(ClusterCommand.Status.databaseProblem(nodes)).isEmpty();
  }

  @Test
  void nodesThatAdvertiseOneAddressAreAProblemNamingBothSettings() throws Exception {
    List<JsonNode> nodes =
        List.of(
            node("{\"node_id\":\"cp1\",\"members_sharing_addresses\":[\"cp1\",\"cp2\"]}"),
            node("{\"node_id\":\"cp3\",\"members_sharing_addresses\":[]}"));

    assertThat(ClusterCommand.Status.addressProblem(nodes))
        .hasValueSatisfying(
            problem ->
                assertThat(problem)
                    .contains("SERVICE_CONTROLPLANE_ADVERTISED_HTTP")
                    .contains("SERVICE_CONTROLPLANE_ADVERTISED_GRPC")
                    .contains("cp1 sees [\"cp1\",\"cp2\"]")
                    .doesNotContain("cp3"));
    assertThat(ClusterCommand.Status.addressProblem(List.of(nodes.get(1)))).isEmpty();
  }
}

package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.GroupCommand;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.output.Printer;
import dev.controlplane.cli.output.Render;
import dev.controlplane.cli.output.Table;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cpctl cluster status}: every node's own view, side by side. */
@Command(
    name = "cluster",
    header = "Show each control plane node's role, leader, term, lag.",
    mixinStandardHelpOptions = true,
    description = "The control plane cluster itself.",
    subcommands = ClusterCommand.Status.class,
    footerHeading = "%nExamples:%n",
    footer = "  cpctl cluster status")
public final class ClusterCommand extends GroupCommand {

  @Command(
      name = "status",
      header = "Show every node's role, leader, term, version and lag.",
      mixinStandardHelpOptions = true,
      description = {
        "Ask every server of the context (or --server) for its view (GET /v1/cluster/node):"
            + " node id, role, the leader it knows, the term, the metadata version it serves, the"
            + " committed version and its lag. A node that cannot answer that (no database) is"
            + " shown from /health/ready; one that cannot be reached, as unreachable. Exit code 1"
            + " when any node is unreachable, none or several claim to lead, or nodes disagree on"
            + " the leader, on the member list (SERVICE_CONTROLPLANE_CLUSTER_MEMBERS) or on the"
            + " database (SERVICE_CONTROLPLANE_DB_URL), or advertise the same address"
            + " (SERVICE_CONTROLPLANE_ADVERTISED_HTTP, _GRPC).",
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl cluster status",
        "  cpctl cluster status -s http://cp1:9080,http://cp2:9080,http://cp3:9080 -o json"
      })
  static final class Status extends BaseCommand {
    @Mixin OutputOption output;

    @Override
    protected int execute() {
      Session session = session();
      HttpClient http = session.api().http();
      List<ObjectNode> nodes = new ArrayList<>();
      for (URI server : session.target().servers()) {
        nodes.add(ask(session, http, server));
      }
      var array = Printer.JSON.createArrayNode();
      nodes.forEach(array::add);
      if (!Render.structured(session, array, output.format)) {
        Table table =
            new Table(
                "ENDPOINT",
                "NODE",
                "ROLE",
                "LEADER",
                "TERM",
                "VERSION",
                "COMMITTED",
                "LAG",
                "WATCHERS",
                "ERROR");
        for (JsonNode n : nodes) {
          table.row(
              n.path("endpoint").asText(),
              n.path("node_id").asText(),
              n.path("role").asText(),
              n.path("leader").asText(),
              n.path("term").asText(),
              n.path("metadata_version").asText(),
              n.path("committed_version").asText(),
              n.path("lag").asText(),
              n.path("watchers").asText(),
              n.path("error").asText());
        }
        table.print(session.out());
      }
      return verdict(session, nodes);
    }

    private static int verdict(Session session, List<ObjectNode> nodes) {
      long leaders = nodes.stream().filter(n -> n.path("role").asText().equals("leader")).count();
      long unreachable = nodes.stream().filter(n -> n.has("error")).count();
      long views =
          nodes.stream()
              .filter(n -> !n.has("error"))
              .map(n -> n.path("leader").asText())
              .distinct()
              .count();
      List<String> problems = new ArrayList<>();
      if (unreachable > 0) {
        problems.add(unreachable + " of " + nodes.size() + " nodes did not answer");
      }
      if (leaders != 1) {
        problems.add(leaders + " nodes say they lead");
      }
      if (views > 1) {
        problems.add("nodes disagree on the leader");
      }
      memberListProblem(nodes).ifPresent(problems::add);
      databaseProblem(nodes).ifPresent(problems::add);
      addressProblem(nodes).ifPresent(problems::add);
      if (problems.isEmpty()) {
        return ExitCodes.OK;
      }
      session.err().println("warning: " + String.join("; ", problems));
      return ExitCodes.FAILED;
    }

    /**
     * The nodes' configured member lists differ, among those asked or as a node sees the others in
     * its cluster view (which also covers nodes missing from the context).
     */
    private static Optional<String> memberListProblem(List<ObjectNode> nodes) {
      java.util.Map<String, List<String>> byList = new java.util.TreeMap<>();
      List<String> seen = new ArrayList<>();
      for (JsonNode n : nodes) {
        if (n.has("members")) {
          byList
              .computeIfAbsent(n.path("members").asText(), l -> new ArrayList<>())
              .add(n.path("node_id").asText());
        }
        if (n.path("members_disagreeing").size() > 0) {
          seen.add(n.path("node_id").asText() + " sees " + n.path("members_disagreeing"));
        }
      }
      if (byList.size() <= 1 && seen.isEmpty()) {
        return Optional.empty();
      }
      List<String> lists = new ArrayList<>();
      byList.forEach((list, ids) -> lists.add(String.join(", ", ids) + ": '" + list + "'"));
      return Optional.of(
          "nodes disagree on SERVICE_CONTROLPLANE_CLUSTER_MEMBERS ("
              + String.join("; ", lists)
              + (seen.isEmpty() ? "" : "; " + String.join("; ", seen))
              + ")");
    }

    /**
     * Nodes see members of their cluster view on another database than their own (a mistyped
     * SERVICE_CONTROLPLANE_DB_URL): the odd node stops once a majority shows it is, so a lasting
     * one means no database has a majority and nobody can lead.
     */
    static Optional<String> databaseProblem(List<? extends JsonNode> nodes) {
      List<String> seen = seen(nodes, "members_on_other_database");
      return seen.isEmpty()
          ? Optional.empty()
          : Optional.of(
              "nodes use different databases (SERVICE_CONTROLPLANE_DB_URL: "
                  + String.join("; ", seen)
                  + " on another database than its own)");
    }

    /**
     * Nodes see members advertising the same HTTP or gRPC address (a configuration copied from
     * another node): followers would send clients for the leader to the wrong node.
     */
    static Optional<String> addressProblem(List<? extends JsonNode> nodes) {
      List<String> seen = seen(nodes, "members_sharing_addresses");
      return seen.isEmpty()
          ? Optional.empty()
          : Optional.of(
              "nodes advertise the same address (SERVICE_CONTROLPLANE_ADVERTISED_HTTP or"
                  + " SERVICE_CONTROLPLANE_ADVERTISED_GRPC: "
                  + String.join("; ", seen)
                  + ")");
    }

    /** "cp1 sees [...]" for each node whose {@code field} lists nodes. */
    private static List<String> seen(List<? extends JsonNode> nodes, String field) {
      List<String> seen = new ArrayList<>();
      for (JsonNode n : nodes) {
        if (n.path(field).size() > 0) {
          seen.add(n.path("node_id").asText() + " sees " + n.path(field));
        }
      }
      return seen;
    }

    private static ObjectNode ask(Session session, HttpClient http, URI server) {
      String bearer = session.credentials().bearer(null);
      Optional<JsonNode> node = get(http, server.resolve("/v1/cluster/node"), bearer);
      ObjectNode out = Printer.JSON.createObjectNode().put("endpoint", server.toString());
      if (node.isPresent() && node.get().has("node_id")) {
        out.setAll((ObjectNode) node.get());
        return out;
      }
      Optional<JsonNode> ready = get(http, server.resolve("/health/ready"), null);
      JsonNode data = ready.map(r -> r.path("checks").path(0).path("data")).orElse(null);
      if (data == null || data.isMissingNode()) {
        String why = node.map(n -> n.path("code").asText("no answer")).orElse("unreachable");
        return out.put("error", why);
      }
      out.put("role", data.path("role").asText());
      out.put("leader", data.path("leader").asText());
      out.put("term", data.path("term").asLong());
      out.put("metadata_version", data.path("metadata_version").asLong());
      out.put("watchers", data.path("watchers").asLong());
      out.put("database", data.path("database").asBoolean());
      return out;
    }

    /** The JSON body of a GET, whatever its status; empty when nothing answered. */
    private static Optional<JsonNode> get(HttpClient http, URI uri, String bearer) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(uri)
              .timeout(Duration.ofSeconds(3))
              .header("Accept", "application/json");
      if (bearer != null) {
        request.header("Authorization", "Bearer " + bearer);
      }
      try {
        HttpResponse<String> response =
            http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return Optional.of(Printer.JSON.readTree(response.body()));
      } catch (IOException e) {
        return Optional.empty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
  }
}

package dev.controlplane.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A cluster of {@link ElectionNode} JVMs on loopback: the election layer only, against a fresh
 * schema in its own database ({@code <test db>_election}), with fresh Raft data.
 */
public final class ElectionCluster implements AutoCloseable {

  private static final HttpClient PROBE =
      HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

  private final String name;
  private final Map<String, Integer> statusPorts = new LinkedHashMap<>();
  private final Map<String, String> env = new LinkedHashMap<>();
  private final Map<String, Map<String, String>> nodeEnv = new LinkedHashMap<>();
  private final Map<String, Process> processes = new LinkedHashMap<>();
  private final Path raftDir;

  private ElectionCluster(String name, int size) throws IOException {
    this.name = name;
    List<String> members = new ArrayList<>();
    for (int i = 1; i <= size; i++) {
      members.add("cp" + i + "=" + clusterAddress("cp" + i) + ":" + Ports.free());
      statusPorts.put("cp" + i, Ports.free());
    }
    env.put("MEMBERS", String.join(",", members));
    env.put("DB_URL", dbUrl());
    raftDir = Files.createTempDirectory("election-" + name + "-");
  }

  public static String dbUrl() {
    return TestDatabase.url(TestDatabase.name() + "_election");
  }

  /** A cluster of {@code size} nodes, none started yet, over a freshly migrated schema. */
  public static ElectionCluster create(String name, int size) throws Exception {
    TestDatabase.resetAndMigrate(dbUrl());
    return new ElectionCluster(name, size);
  }

  /**
   * The loopback address node {@code id} binds its cluster transport to, as a server node's ({@link
   * TestCluster#clusterAddress}), so that a {@link Partition} can cut it off.
   */
  public static String clusterAddress(String id) {
    return TestCluster.clusterAddress(id);
  }

  public List<String> ids() {
    return List.copyOf(statusPorts.keySet());
  }

  /** Sets node {@code id}'s database, for the nodes started after this. */
  public void useDatabase(String id, String jdbcUrl) {
    set(id, "DB_URL", jdbcUrl);
  }

  /** Sets node {@code id}'s environment variable {@code name}, for its next start. */
  public void set(String id, String name, String value) {
    nodeEnv.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(name, value);
  }

  /** The HTTP URL node {@code id} advertises unless set otherwise. */
  public String httpUrl(String id) {
    return "http://127.0.0.1:" + statusPorts.get(id);
  }

  /** Waits for node {@code id} to exit on its own; its exit status, or empty after the timeout. */
  public java.util.OptionalInt awaitExit(String id, Duration timeout) throws InterruptedException {
    Process p = processes.get(id);
    if (p.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      processes.remove(id);
      return java.util.OptionalInt.of(p.exitValue());
    }
    return java.util.OptionalInt.empty();
  }

  public void start(String id) throws IOException {
    Path log = Path.of("target", "it-logs", name + "-" + id + ".log");
    Files.createDirectories(log.getParent());
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-XX:TieredStopAtLevel=1",
                "-Djava.util.logging.config.file="
                    + Path.of("target", "test-classes", "election-logging.properties")
                        .toAbsolutePath(),
                "-cp",
                System.getProperty("java.class.path"),
                ElectionNode.class.getName())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().putAll(env);
    builder.environment().putAll(nodeEnv.getOrDefault(id, Map.of()));
    builder.environment().put("NODE_ID", id);
    builder.environment().put("STATUS_PORT", Integer.toString(statusPorts.get(id)));
    builder.environment().put("RAFT_DIR", raftDir.resolve(id).toString());
    processes.put(id, builder.start());
  }

  /**
   * The node's status ({@code role}, {@code leader}, {@code term}); empty if it does not answer.
   */
  public Optional<JsonNode> status(String id) {
    try {
      HttpResponse<String> response =
          PROBE.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + statusPorts.get(id) + "/status"))
                  .timeout(Duration.ofMillis(500))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return Optional.of(Http.JSON.readTree(response.body()));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * The leader every node names, when all nodes answer, exactly one of them reports role {@code
   * leader} and all name it.
   */
  public Optional<String> agreedLeader() {
    return agreedLeader(ids());
  }

  /** The leader all of {@code among} name, exactly one of them reporting role {@code leader}. */
  public Optional<String> agreedLeader(List<String> among) {
    Map<String, JsonNode> views = statuses();
    views.keySet().retainAll(among);
    if (views.size() != among.size()) {
      return Optional.empty();
    }
    List<String> leaders =
        views.entrySet().stream()
            .filter(e -> e.getValue().path("role").asText().equals("leader"))
            .map(Map.Entry::getKey)
            .toList();
    if (leaders.size() != 1) {
      return Optional.empty();
    }
    String leader = leaders.get(0);
    boolean all = views.values().stream().allMatch(v -> v.path("leader").asText().equals(leader));
    return all ? Optional.of(leader) : Optional.empty();
  }

  public Map<String, JsonNode> statuses() {
    Map<String, JsonNode> views = new LinkedHashMap<>();
    for (String id : statusPorts.keySet()) {
      status(id).ifPresent(s -> views.put(id, s));
    }
    return views;
  }

  public String describe() {
    return statuses().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
  }

  /** Everything node {@code id}'s current run has logged. */
  public String logText(String id) {
    try {
      return Files.readString(Path.of("target", "it-logs", name + "-" + id + ".log"));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  public String logTail(String id) {
    try {
      List<String> lines =
          Files.readAllLines(Path.of("target", "it-logs", name + "-" + id + ".log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 150), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  public void kill(String id) {
    Process p = processes.remove(id);
    p.destroyForcibly();
    try {
      p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    for (Process p : processes.values()) {
      p.destroyForcibly();
    }
    for (Process p : processes.values()) {
      try {
        p.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

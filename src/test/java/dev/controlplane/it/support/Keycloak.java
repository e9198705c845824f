package dev.controlplane.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Keycloak itself, the identity provider many platform teams run: the distribution from Maven
 * Central (unpacked by the build into {@code keycloak.home}), started in development mode on
 * 127.0.0.1 with a realm imported from the test resources. Its console goes to
 * target/keycloak-logs/keycloak.log, outside the logs LogSecretsIT scans (those are the control
 * plane's).
 */
public final class Keycloak implements AutoCloseable {

  private static final String ADMIN = "admin";
  private static final String ADMIN_PASSWORD = "it-keycloak-admin-pw";

  private final Path home;
  private final int port;
  private final Path log;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private Process process;

  private Keycloak(Path home, int port, Path log) {
    this.home = home;
    this.port = port;
    this.log = log;
  }

  /** Starts a fresh Keycloak (no state from an earlier run) with the realm of {@code resource}. */
  public static Keycloak start(String realmResource) throws Exception {
    Path home = home();
    Path data = home.resolve("data");
    Directories.deleteTree(data);
    Files.createDirectories(data.resolve("import"));
    try (InputStream realm = Keycloak.class.getResourceAsStream(realmResource)) {
      if (realm == null) {
        throw new IllegalStateException("no test resource " + realmResource);
      }
      Files.copy(realm, data.resolve("import").resolve("realm.json"));
    }
    Path log = Path.of("target", "keycloak-logs", "keycloak.log");
    Files.createDirectories(log.getParent());
    Keycloak keycloak = new Keycloak(home, Ports.free(), log);
    keycloak.launch(Ports.free());
    Runtime.getRuntime().addShutdownHook(new Thread(keycloak::close));
    return keycloak;
  }

  private void launch(int managementPort) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                home.resolve("bin/kc.sh").toString(),
                "start-dev",
                "--http-host=127.0.0.1",
                "--http-port=" + port,
                "--http-management-port=" + managementPort,
                "--import-realm")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("JAVA_HOME", javaHome().toString());
    builder.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN);
    builder.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD);
    // Keycloak's default heap is a share of the machine's memory; the suite's nodes run beside it.
    builder.environment().put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
    process = builder.start();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(180));
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Keycloak exited with " + process.exitValue() + ":\n" + tail());
      }
      try {
        if (get(discoveryUrl()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(500);
    }
    close();
    throw new IllegalStateException("Keycloak did not serve its realm within 180 s:\n" + tail());
  }

  private static Path home() {
    String home = System.getProperty("keycloak.home");
    if (home == null || !Files.isExecutable(Path.of(home, "bin", "kc.sh"))) {
      throw new IllegalStateException(
          "no Keycloak distribution at keycloak.home="
              + home
              + ": the build unpacks it in pre-integration-test (run the ITs through mvn verify)");
    }
    return Path.of(home);
  }

  /**
   * Keycloak 26 is supported on Java 21 and later and still runs on 17: KEYCLOAK_JAVA_HOME when
   * set, else the newest JDK of 21 or later under /usr/lib/jvm, else the JDK running the tests.
   */
  static Path javaHome() {
    String given = System.getenv("KEYCLOAK_JAVA_HOME");
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    try (Stream<Path> jdks = Files.list(Path.of("/usr/lib/jvm"))) {
      Optional<Path> newest =
          jdks.filter(jdk -> Files.isExecutable(jdk.resolve("bin/java")))
              .filter(jdk -> featureVersion(jdk) >= 21)
              .max(Comparator.comparingInt(Keycloak::featureVersion));
      if (newest.isPresent()) {
        return newest.get();
      }
    } catch (IOException noJvmDirectory) {
      // fall through to the test JVM's own
    }
    return Path.of(System.getProperty("java.home"));
  }

  private static int featureVersion(Path jdk) {
    try {
      for (String line : Files.readAllLines(jdk.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
          return Integer.parseInt(version.split("[.+-]")[0]);
        }
      }
    } catch (IOException | NumberFormatException unreadable) {
      // not a JDK we can judge
    }
    return 0;
  }

  public String issuer(String realm) {
    return "http://127.0.0.1:" + port + "/realms/" + realm;
  }

  public String discoveryUrl() {
    return discoveryUrl("acme");
  }

  public String discoveryUrl(String realm) {
    return issuer(realm) + "/.well-known/openid-configuration";
  }

  /** An access token from the resource-owner password grant, as a CLI or script would get one. */
  public String passwordToken(
      String realm, String client, String secret, String user, String password) {
    return token(
        realm,
        Map.of(
            "grant_type", "password",
            "client_id", client,
            "client_secret", secret,
            "username", user,
            "password", password));
  }

  /** An access token of a client's service account (client credentials), as a broker gets one. */
  public String clientToken(String realm, String client, String secret) {
    return token(
        realm,
        Map.of("grant_type", "client_credentials", "client_id", client, "client_secret", secret));
  }

  private String token(String realm, Map<String, String> form) {
    JsonNode answer = post(issuer(realm) + "/protocol/openid-connect/token", form);
    return answer.path("access_token").asText();
  }

  /**
   * Adds a generated P-256 key to the realm with a priority above the others, so Keycloak signs
   * every ES256 token from now on with it: a key rotation as an administrator does it.
   */
  public void addSigningKey(String realm, String name, int priority) {
    String admin =
        token(
            "master",
            Map.of(
                "grant_type",
                "password",
                "client_id",
                "admin-cli",
                "username",
                ADMIN,
                "password",
                ADMIN_PASSWORD));
    String realmId = adminGet(admin, realm).path("id").asText();
    ObjectNode component =
        Http.JSON
            .createObjectNode()
            .put("name", name)
            .put("providerId", "ecdsa-generated")
            .put("providerType", "org.keycloak.keys.KeyProvider")
            .put("parentId", realmId);
    ObjectNode config = component.putObject("config");
    config.putArray("priority").add(Integer.toString(priority));
    config.putArray("ecdsaEllipticCurveKey").add("P-256");
    HttpResponse<String> created =
        send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + port + "/admin/realms/" + realm + "/components"))
                .header("Authorization", "Bearer " + admin)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(component.toString())));
    if (created.statusCode() != 201) {
      throw new IllegalStateException(
          "Keycloak refused the key " + name + ": " + created.statusCode() + " " + created.body());
    }
  }

  private JsonNode adminGet(String admin, String realm) {
    HttpResponse<String> reply =
        send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/admin/realms/" + realm))
                .header("Authorization", "Bearer " + admin));
    return parse(reply);
  }

  private JsonNode post(String url, Map<String, String> form) {
    String body =
        form.entrySet().stream()
            .map(
                e ->
                    URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    return parse(
        send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body))));
  }

  private JsonNode parse(HttpResponse<String> reply) {
    if (reply.statusCode() != 200) {
      throw new IllegalStateException(
          "Keycloak answered " + reply.statusCode() + " to " + reply.uri() + ": " + reply.body());
    }
    try {
      return Http.JSON.readTree(reply.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(
          request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public synchronized void close() {
    if (process == null) {
      return;
    }
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process = null;
  }
}

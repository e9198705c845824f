package dev.controlplane.cli.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.controlplane.cli.CliException;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration file: contexts and the current one. Where it lives: {@code $CPCTL_CONFIG}, else
 * {@code $XDG_CONFIG_HOME/cpctl/config.yaml}, else {@code $HOME/.config/cpctl/config.yaml}. It may
 * hold secrets, so it is written with mode 600, atomically.
 */
@com.fasterxml.jackson.annotation.JsonPropertyOrder({"current-context", "contexts"})
public final class CliConfig {

  static final ObjectMapper YAML =
      new ObjectMapper(
              new YAMLFactory()
                  .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                  .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES))
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  @JsonProperty("current-context")
  public String currentContext;

  public List<ContextConfig> contexts = new ArrayList<>();

  public static Path location(Map<String, String> env) {
    String explicit = env.get("CPCTL_CONFIG");
    if (explicit != null && !explicit.isEmpty()) {
      return Path.of(explicit);
    }
    String xdg = env.get("XDG_CONFIG_HOME");
    if (xdg != null && !xdg.isEmpty()) {
      return Path.of(xdg, "cpctl", "config.yaml");
    }
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    return Path.of(home, ".config", "cpctl", "config.yaml");
  }

  /** The file's content, or an empty configuration when there is no file yet. */
  public static CliConfig load(Path file) {
    if (!Files.exists(file)) {
      return new CliConfig();
    }
    try {
      CliConfig config = YAML.readValue(file.toFile(), CliConfig.class);
      return config == null ? new CliConfig() : config;
    } catch (JsonProcessingException e) {
      throw CliException.config(
          "cannot read " + file + ": " + e.getOriginalMessage().replace('\n', ' '));
    } catch (IOException e) {
      throw CliException.config("cannot read " + file + ": " + e.getMessage());
    }
  }

  public void save(Path file) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path temp = Files.createTempFile(dir, ".config", ".yaml");
      try {
        restrict(temp);
        Files.writeString(temp, YAML.writeValueAsString(this));
        move(temp, file);
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw CliException.config("cannot write " + file + ": " + e.getMessage());
    }
  }

  private static void restrict(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException notPosix) {
      // Windows: the user's profile directory is private already.
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  public Optional<ContextConfig> context(String name) {
    return contexts.stream().filter(c -> c.name.equals(name)).findFirst();
  }

  /** The context named {@code name}, created (and made current if none is) when missing. */
  public ContextConfig contextForUpdate(String name) {
    return context(name)
        .orElseGet(
            () -> {
              ContextConfig created = new ContextConfig();
              created.name = name;
              contexts.add(created);
              if (currentContext == null) {
                currentContext = name;
              }
              return created;
            });
  }

  /** The YAML text of this configuration with every literal secret replaced. */
  public String redactedYaml() {
    CliConfig copy = new CliConfig();
    copy.currentContext = currentContext;
    contexts.forEach(c -> copy.contexts.add(c.redacted()));
    try {
      return YAML.writeValueAsString(copy);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public String rawYaml() {
    try {
      return YAML.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}

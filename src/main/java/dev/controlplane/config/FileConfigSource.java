package dev.controlplane.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The YAML configuration file named by {@code SERVICE_CONTROLPLANE_CONFIG_FILE}: one flat mapping
 * whose keys are the settings' names without the {@code SERVICE_CONTROLPLANE_} prefix, in lower
 * case ({@code oidc_allowed_algorithms}, {@code heartbeat_interval}, {@code bootstrap_enabled}); a
 * list is a comma-separated value. Its ordinal, {@value #ORDINAL}, is below the environment's (300)
 * and system properties' (400), so either overrides the file.
 *
 * <p>A source cannot stop MicroProfile Config from starting, so it records what is wrong: a file
 * that cannot be read or is not a mapping yields no values, and {@link #requireValid()} turns that
 * into the one-line start-up failure on its own; an unusable entry (an unknown key, say) is left
 * out, and {@link #reportEntries} adds it to the start's other invalid settings.
 */
public final class FileConfigSource implements ConfigSource {

  static final int ORDINAL = 250;
  static final String ENV = "SERVICE_CONTROLPLANE_CONFIG_FILE";
  static final String PROPERTY = "service.controlplane.config.file";

  private final Optional<Path> file;
  private final Map<String, String> properties;
  private final Optional<String> unusable;
  private final List<String> entryProblems;

  public FileConfigSource() {
    this(configuredPath());
  }

  FileConfigSource(Optional<Path> file) {
    this.file = file;
    FileSettings.Entries read = new FileSettings.Entries(Map.of(), List.of());
    String failure = null;
    if (file.isPresent()) {
      try {
        read = FileSettings.toProperties(file.get(), parse(file.get()));
      } catch (InvalidSettingException e) {
        failure = e.getMessage();
      }
    }
    this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(read.properties()));
    this.unusable = Optional.ofNullable(failure);
    this.entryProblems = List.copyOf(read.problems());
  }

  private static Optional<Path> configuredPath() {
    String path = System.getProperty(PROPERTY);
    if (path == null || path.isBlank()) {
      path = System.getenv(ENV);
    }
    return path == null || path.isBlank() ? Optional.empty() : Optional.of(Path.of(path.trim()));
  }

  private static JsonNode parse(Path file) {
    try {
      // A key written twice would otherwise keep its last value without a word.
      JsonNode tree =
          new ObjectMapper(new YAMLFactory())
              .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
              .readTree(Files.readAllBytes(file));
      return tree == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : tree;
    } catch (IOException e) {
      String where =
          e instanceof com.fasterxml.jackson.core.JsonProcessingException p
                  && p.getLocation() != null
              ? " (line " + p.getLocation().getLineNr() + ")"
              : "";
      throw new InvalidSettingException(
          "config file "
              + file
              + " ("
              + ENV
              + ") cannot be read"
              + where
              + ": "
              + e.getClass().getSimpleName()
              + (e instanceof com.fasterxml.jackson.core.JsonProcessingException p
                  ? ", it is not valid YAML" + duplicate(p)
                  : " " + e.getMessage()));
    }
  }

  private static String duplicate(com.fasterxml.jackson.core.JsonProcessingException e) {
    String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    return message.startsWith("Duplicate field")
        ? ": " + message.replace("Duplicate field", "the key") + " appears twice"
        : "";
  }

  /**
   * Fails the start when the configuration file was named but could not be used at all: every
   * setting it holds would be reported missing or defaulted otherwise.
   */
  public static void requireValid() {
    for (ConfigSource source : ConfigProvider.getConfig().getConfigSources()) {
      if (source instanceof FileConfigSource f && f.unusable.isPresent()) {
        throw new InvalidSettingException(f.unusable.get());
      }
    }
  }

  /** Adds each unusable entry of the configuration file to the start's invalid settings. */
  public static void reportEntries(SettingProblems problems) {
    for (ConfigSource source : ConfigProvider.getConfig().getConfigSources()) {
      if (source instanceof FileConfigSource f) {
        f.problems().forEach(problems::add);
      }
    }
  }

  /** What is wrong with the file: why it is unusable, or each unusable entry; empty when fine. */
  List<String> problems() {
    return unusable.map(List::of).orElse(entryProblems);
  }

  @Override
  public Set<String> getPropertyNames() {
    return properties.keySet();
  }

  @Override
  public Map<String, String> getProperties() {
    return properties;
  }

  @Override
  public String getValue(String propertyName) {
    return properties.get(propertyName);
  }

  @Override
  public String getName() {
    return file.map(f -> "config file " + f).orElse("config file (none)");
  }

  @Override
  public int getOrdinal() {
    return ORDINAL;
  }
}

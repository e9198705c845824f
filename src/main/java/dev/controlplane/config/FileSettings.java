package dev.controlplane.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The keys of the configuration file and how they map to MicroProfile properties: {@code
 * heartbeat_interval} is {@code service.controlplane.heartbeat.interval}, {@code bootstrap_token}
 * is {@code service.bootstrap.token}. The known keys are derived from the settings the service
 * declares, so a new setting is a file key at once and a misspelt key cannot pass unnoticed.
 */
final class FileSettings {

  /**
   * Settings that Liberty's server.xml reads from the environment as well (HTTP listener and
   * connection pools): a file value would reach only one of the two readers, so the file refuses
   * them.
   */
  static final Set<String> ENVIRONMENT_ONLY =
      Set.of(
          "http_port",
          "bind_host",
          "db_url",
          "db_user",
          "db_password",
          "db_pool_size",
          "tls_cert_path",
          "log_format");

  private static final String GENERAL = "service.controlplane.";
  private static final String BOOTSTRAP = "service.bootstrap.";

  private FileSettings() {}

  /**
   * The file's usable entries as MicroProfile properties, and what is wrong with each other entry
   * (an unknown key, a key only the environment may set, a nested value). Entries are judged one by
   * one, so a start that fails names every unusable key, with every other invalid setting, and the
   * file's usable values take part in checking the others. Throws when the document as a whole is
   * not a mapping.
   */
  static Entries toProperties(Path file, JsonNode tree) {
    if (tree.isMissingNode() || tree.isNull()) {
      return new Entries(Map.of(), List.of());
    }
    if (!tree.isObject()) {
      throw problem(file, "must be a mapping of setting names to values");
    }
    Set<String> known = knownKeys();
    Map<String, String> properties = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
      var entry = it.next();
      try {
        String key = usableKey(file, entry.getKey(), known);
        value(file, key, entry.getValue()).ifPresent(v -> properties.put(property(key), v));
      } catch (InvalidSettingException e) {
        problems.add(e.getMessage());
      }
    }
    return new Entries(properties, problems);
  }

  /** The file's usable values, by property, and a message for each entry that is not usable. */
  record Entries(Map<String, String> properties, List<String> problems) {}

  private static String usableKey(Path file, String key, Set<String> known) {
    if (ENVIRONMENT_ONLY.contains(key)) {
      throw problem(
          file,
          "key '"
              + key
              + "' cannot be set in the file: Liberty (listener, pools, log) reads it only from"
              + " the environment variable "
              + Settings.envName(GENERAL + key.replace('_', '.')));
    }
    if (!known.contains(key)) {
      throw problem(
          file,
          "key '"
              + key
              + "' is not a setting (keys are the SERVICE_CONTROLPLANE_* names of"
              + " docs/configuration.md without the prefix, in lower case)");
    }
    return key;
  }

  /** A scalar as written; a list joined with commas (MicroProfile's list form); null = unset. */
  private static java.util.Optional<String> value(Path file, String key, JsonNode node) {
    if (node.isNull()) {
      return java.util.Optional.empty();
    }
    if (node.isValueNode()) {
      return java.util.Optional.of(node.asText());
    }
    if (node.isArray()) {
      StringBuilder joined = new StringBuilder();
      for (JsonNode item : node) {
        if (!item.isValueNode() || item.isNull()) {
          throw problem(file, "key '" + key + "' must be a list of plain values");
        }
        joined.append(joined.length() == 0 ? "" : ",").append(item.asText().replace(",", "\\,"));
      }
      return java.util.Optional.of(joined.toString());
    }
    throw problem(file, "key '" + key + "' must be a plain value or a list, not a mapping");
  }

  static String property(String key) {
    String dotted = key.replace('_', '.');
    return dotted.startsWith("bootstrap.") ? "service." + dotted : GENERAL + dotted;
  }

  /** File keys of every setting declared with @ConfigProperty in this package. */
  static Set<String> knownKeys() {
    Set<String> keys = new TreeSet<>();
    for (Class<?> settings :
        new Class<?>[] {
          ControlPlaneConfig.class,
          ClusterConfig.class,
          GrpcListenerConfig.class,
          AuthConfig.class,
          TlsConfig.class,
          SharedCredentials.class
        }) {
      for (Field field : settings.getDeclaredFields()) {
        ConfigProperty p = field.getAnnotation(ConfigProperty.class);
        if (p != null) {
          keys.add(key(p.name()));
        }
      }
    }
    return keys;
  }

  private static String key(String property) {
    String rest =
        property.startsWith(BOOTSTRAP)
            ? "bootstrap." + property.substring(BOOTSTRAP.length())
            : property.substring(GENERAL.length());
    return rest.replace('.', '_');
  }

  private static InvalidSettingException problem(Path file, String what) {
    return new InvalidSettingException(
        "config file " + file + " (" + FileConfigSource.ENV + "): " + what);
  }
}

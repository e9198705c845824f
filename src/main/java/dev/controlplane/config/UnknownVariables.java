package dev.controlplane.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Environment variables with the service's prefixes that are no setting: a misspelt one ({@code
 * SERVICE_CONTROLPLANE_HEARTBEAT_INTERVALL}) would otherwise leave the default in force without a
 * word. They are reported, with the setting meant when one is close, but do not stop the start: a
 * variable of a newer release must not keep an older one from starting after a rollback (etcd warns
 * about unrecognised {@code ETCD_*} variables for the same reason). The configuration file, which a
 * release ships with, refuses unknown keys instead.
 */
public final class UnknownVariables {

  private static final List<String> PREFIXES =
      List.of("SERVICE_CONTROLPLANE_", "SERVICE_BOOTSTRAP_");

  private UnknownVariables() {}

  /** One warning per unknown variable of {@code environment}, in name order. */
  public static List<String> in(Map<String, String> environment) {
    Set<String> known = knownNames();
    List<String> warnings = new ArrayList<>();
    for (String name : new TreeSet<>(environment.keySet())) {
      if (PREFIXES.stream().noneMatch(name::startsWith) || known.contains(name)) {
        continue;
      }
      warnings.add(
          "environment variable "
              + name
              + " is not a setting and is ignored"
              + closest(name, known).map(k -> " (did you mean " + k + "?)").orElse("")
              + "; the settings are listed in docs/configuration.md");
    }
    return warnings;
  }

  static Set<String> knownNames() {
    Set<String> names = new TreeSet<>();
    names.add(FileConfigSource.ENV);
    FileSettings.knownKeys().forEach(k -> names.add(Settings.envName(FileSettings.property(k))));
    FileSettings.ENVIRONMENT_ONLY.forEach(
        k -> names.add(Settings.envName(FileSettings.property(k))));
    return names;
  }

  /** The known name fewest single-character edits away, if a typo's worth (at most 3). */
  private static Optional<String> closest(String name, Set<String> known) {
    String best = null;
    int bestDistance = 4;
    for (String candidate : known) {
      int d = distance(name, candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Levenshtein distance, two rows. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}

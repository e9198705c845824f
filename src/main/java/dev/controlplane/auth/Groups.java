package dev.controlplane.auth;

import dev.controlplane.metadata.model.Names;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns an upstream groups claim into {@code group:<name>} subjects for this exchange only. A name
 * already prefixed keeps its prefix; names outside the naming rule cannot match any grouping and
 * are dropped, and at most {@link #MAX} are used.
 */
final class Groups {

  static final int MAX = 100;

  private Groups() {}

  static Set<String> from(Object claim) {
    Collection<?> values =
        claim instanceof Collection<?> c ? c : claim instanceof String s ? List.of(s) : List.of();
    Set<String> out = new LinkedHashSet<>();
    for (Object value : values) {
      if (out.size() >= MAX) {
        break;
      }
      if (value instanceof String name) {
        String bare = name.startsWith("group:") ? name.substring(6) : name;
        if (Names.isValid(bare)) {
          out.add("group:" + bare);
        }
      }
    }
    return Set.copyOf(out);
  }
}

package dev.controlplane.auth;

import dev.controlplane.rbac.Subjects;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns an upstream groups claim into RBAC subjects for this exchange only: group {@code <name>} of
 * an issuer with groups prefix {@code <prefix>} is {@code group:<prefix><name>}, the name taken
 * exactly as sent (a name the IdP already sends as {@code group:<name>} keeps one prefix). Names
 * that are empty, longer than {@link Subjects#MAX_GROUP_NAME} or contain control characters cannot
 * be granted anything and are dropped, and at most {@link #MAX} are used (Azure AD puts up to 200
 * groups in a token before it switches to an overage claim).
 */
final class Groups {

  static final int MAX = 200;

  private Groups() {}

  static Set<String> from(Object claim, String prefix) {
    Collection<?> values =
        claim instanceof Collection<?> c ? c : claim instanceof String s ? List.of(s) : List.of();
    Set<String> out = new LinkedHashSet<>();
    for (Object value : values) {
      if (out.size() >= MAX) {
        break;
      }
      if (value instanceof String name) {
        String bare =
            name.startsWith(Subjects.GROUP) ? name.substring(Subjects.GROUP.length()) : name;
        if (Subjects.isGroupName(bare)) {
          out.add(Subjects.group(prefix, bare));
        }
      }
    }
    return Set.copyOf(out);
  }
}

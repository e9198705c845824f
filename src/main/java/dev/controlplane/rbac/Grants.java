package dev.controlplane.rbac;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Narrows a principal's granted permissions by the {@code requested} actions and {@code resources}
 * hints of a token exchange. The result lists grants as they are, and narrower permissions when a
 * hint names an action or object covered by an (inherited) grant; never anything not held.
 */
public final class Grants {

  private Grants() {}

  public static List<Permission> filter(
      Collection<Permission> granted, Set<Action> requested, List<RbacObject> resources) {
    if (requested.isEmpty() && resources.isEmpty()) {
      return List.copyOf(new LinkedHashSet<>(granted));
    }
    Set<Permission> out = new LinkedHashSet<>();
    for (Permission grant : granted) {
      for (Action action : actions(grant, requested)) {
        for (RbacObject object : objects(grant, resources)) {
          if (action.appliesTo(object.kind())) {
            out.add(new Permission(action, object));
          } else if (object.equals(grant.object())) {
            // The hinted action is inherited inside this grant but cannot be named on its object.
            out.add(grant);
          }
        }
      }
    }
    return List.copyOf(out);
  }

  private static List<Action> actions(Permission grant, Set<Action> requested) {
    if (requested.isEmpty()) {
      return List.of(grant.action());
    }
    return requested.stream().filter(grant.action()::implies).toList();
  }

  private static List<RbacObject> objects(Permission grant, List<RbacObject> resources) {
    if (resources.isEmpty()) {
      return List.of(grant.object());
    }
    List<RbacObject> out = new ArrayList<>();
    for (RbacObject hint : resources) {
      if (grant.object().isWithin(hint)) {
        out.add(grant.object());
      } else if (hint.isWithin(grant.object())) {
        out.add(hint);
      }
    }
    return out;
  }
}

package dev.controlplane.rbac;

import java.util.Collection;
import java.util.Optional;

/**
 * An action on an object: the unit RBAC grants and a token's {@code perms} lists ({@code
 * action:object}).
 */
public record Permission(Action action, RbacObject object) {

  /**
   * Parses {@code action:object}; empty for anything outside the grammar or an action/kind
   * mismatch.
   */
  public static Optional<Permission> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    int colon = text.indexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    return of(text.substring(0, colon), text.substring(colon + 1));
  }

  public static Optional<Permission> of(String action, String object) {
    Optional<Action> a = Action.parse(action);
    Optional<RbacObject> o = RbacObject.parse(object);
    if (a.isEmpty() || o.isEmpty() || !a.get().appliesTo(o.get().kind())) {
      return Optional.empty();
    }
    return Optional.of(new Permission(a.get(), o.get()));
  }

  /** Whether holding this permission allows {@code wanted}: inheritance of actions and objects. */
  public boolean covers(Permission wanted) {
    return action.implies(wanted.action) && wanted.object.isWithin(object);
  }

  public static boolean anyCovers(Collection<Permission> held, Permission wanted) {
    for (Permission p : held) {
      if (p.covers(wanted)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return action.wireName() + ":" + object;
  }
}

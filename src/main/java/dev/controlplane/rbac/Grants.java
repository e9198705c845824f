package dev.controlplane.rbac;

import dev.controlplane.rbac.RbacObject.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Narrows a principal's granted permissions by the {@code requested} actions and {@code resources}
 * hints of a token exchange (decisions.md, RBAC matching).
 *
 * <p>Without hints the grants are listed as they are. With hints, each grant yields the permissions
 * it covers that the hints name: the hinted actions it implies (all it implies when no action is
 * hinted), on the hinted objects inside its object (its own object when none is hinted, or when a
 * hint is broader than it). An action is written on the narrowest object of its kind that stays
 * inside the grant: {@code tenant.manage} on {@code tenant:T} with {@code stream:T/N/*} hinted
 * gives {@code stream.manage}, {@code stream.publish} and {@code stream.subscribe} on {@code
 * stream:T/N/*}; {@code ns.manage} on {@code namespace:T/N} with only {@code stream.publish}
 * requested gives {@code stream.publish:stream:T/N/*}. When the grammar has no such object — a
 * stream action throughout a tenant would need {@code stream:T/*}{@code /*} — nothing is yielded
 * for that grant: the token never carries more than was asked for. Permissions covered by another
 * one of the result are left out.
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
      for (RbacObject object : objects(grant, resources)) {
        boolean asGranted = requested.isEmpty() && grant.object().isWithin(object);
        if (asGranted) {
          out.add(grant);
          continue;
        }
        for (Action action : actions(grant, requested)) {
          narrowest(object, action).ifPresent(o -> out.add(new Permission(action, o)));
        }
      }
    }
    return withoutCovered(out);
  }

  /**
   * Why an exchange with hints left nothing, for the 403: names what the caller holds that the
   * grammar cannot narrow to the requested actions.
   */
  public static String nothingLeft(Collection<Permission> granted, Set<Action> requested) {
    if (granted.isEmpty()) {
      return "no permission is granted to this principal in this tenant";
    }
    boolean inexpressible =
        granted.stream().anyMatch(g -> requested.stream().anyMatch(a -> g.action().implies(a)));
    return inexpressible
        ? "no permission remains for this request: the requested actions are held through "
            + "a broader grant and can only be issued on objects named in resources"
            + " (for example stream:<tenant>/<namespace>/*)"
        : "no permission remains for this principal and request";
  }

  /** The hinted objects inside the grant's object, or the grant's own object. */
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

  private static List<Action> actions(Permission grant, Set<Action> requested) {
    Collection<Action> wanted = requested.isEmpty() ? Arrays.asList(Action.values()) : requested;
    return wanted.stream().filter(grant.action()::implies).toList();
  }

  /**
   * The narrowest object of the grammar on which {@code action} covers everything of its kind
   * inside {@code object}, if the grammar has one.
   */
  static Optional<RbacObject> narrowest(RbacObject object, Action action) {
    if (action.appliesTo(object.kind())) {
      return Optional.of(object);
    }
    if (object.kind() == Kind.TENANT && action.appliesTo(Kind.NAMESPACE)) {
      return Optional.of(RbacObject.namespace(object.tenant(), RbacObject.WILDCARD));
    }
    if (object.kind() == Kind.NAMESPACE && !object.isWildcard()) {
      for (Kind inner : List.of(Kind.STREAM, Kind.CACHE)) {
        if (action.appliesTo(inner)) {
          return Optional.of(
              new RbacObject(inner, object.tenant(), object.namespace(), RbacObject.WILDCARD));
        }
      }
    }
    return Optional.empty();
  }

  private static List<Permission> withoutCovered(Set<Permission> permissions) {
    return permissions.stream()
        .filter(p -> permissions.stream().noneMatch(q -> !q.equals(p) && q.covers(p)))
        .toList();
  }
}

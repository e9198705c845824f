package dev.controlplane.rbac;

import dev.controlplane.rbac.RbacObject.Kind;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The actions of the spec, the object kinds each applies to, and inheritance: {@code tenant.manage}
 * implies every namespace, stream and cache action inside the tenant; {@code ns.manage} implies
 * stream and cache manage, publish/subscribe and read/write inside the namespace. The rbac actions
 * and {@code audit.view} are never implied: role:tenant-admin holds the rbac ones explicitly
 * (decisions.md) and reads the audit log through {@code rbac.view}.
 */
public enum Action {
  RBAC_VIEW("rbac.view", EnumSet.of(Kind.TENANT, Kind.NAMESPACE)),
  RBAC_POLICY_MANAGE("rbac.policy.manage", EnumSet.of(Kind.TENANT, Kind.NAMESPACE)),
  RBAC_ASSIGNMENT_MANAGE("rbac.assignment.manage", EnumSet.of(Kind.TENANT, Kind.NAMESPACE)),
  /** Reading the tenant's audit log ({@code rbac.view} on the tenant reads it too). */
  AUDIT_VIEW("audit.view", EnumSet.of(Kind.TENANT)),
  TENANT_MANAGE("tenant.manage", EnumSet.of(Kind.TENANT)),
  NS_MANAGE("ns.manage", EnumSet.of(Kind.NAMESPACE)),
  STREAM_MANAGE("stream.manage", EnumSet.of(Kind.STREAM)),
  CACHE_MANAGE("cache.manage", EnumSet.of(Kind.CACHE)),
  STREAM_PUBLISH("stream.publish", EnumSet.of(Kind.STREAM)),
  STREAM_SUBSCRIBE("stream.subscribe", EnumSet.of(Kind.STREAM)),
  CACHE_READ("cache.read", EnumSet.of(Kind.CACHE)),
  CACHE_WRITE("cache.write", EnumSet.of(Kind.CACHE));

  private static final Set<Action> NAMESPACE_CONTENT =
      EnumSet.of(
          STREAM_MANAGE, CACHE_MANAGE, STREAM_PUBLISH, STREAM_SUBSCRIBE, CACHE_READ, CACHE_WRITE);

  private final String wireName;
  private final Set<Kind> objectKinds;

  Action(String wireName, Set<Kind> objectKinds) {
    this.wireName = wireName;
    this.objectKinds = objectKinds;
  }

  public static Optional<Action> parse(String text) {
    return Arrays.stream(values()).filter(a -> a.wireName.equals(text)).findFirst();
  }

  public String wireName() {
    return wireName;
  }

  /** Whether a policy may grant this action on an object of this kind. */
  public boolean appliesTo(Kind kind) {
    return objectKinds.contains(kind);
  }

  /** Whether holding this action (on an enclosing object) implies {@code other}. */
  public boolean implies(Action other) {
    if (this == other) {
      return true;
    }
    if (this == TENANT_MANAGE) {
      return other == NS_MANAGE || NAMESPACE_CONTENT.contains(other);
    }
    return this == NS_MANAGE && NAMESPACE_CONTENT.contains(other);
  }

  @Override
  public String toString() {
    return wireName;
  }
}

package dev.controlplane.rbac;

import dev.controlplane.metadata.model.Names;
import java.util.Optional;

/**
 * An RBAC object in the canonical grammar of the spec: {@code tenant:T}, {@code namespace:T/N} or
 * {@code namespace:T/*}, {@code stream:T/N/S} or {@code stream:T/N/*}, {@code cache:T/N/C} or
 * {@code cache:T/N/*}. A wildcard is allowed only as the last segment and never for the tenant, so
 * every object names exactly one tenant.
 *
 * @param name the last segment, or {@code *}; null for a tenant object
 */
public record RbacObject(Kind kind, String tenant, String namespace, String name) {

  public static final String WILDCARD = "*";

  /** The four object kinds and their prefix. */
  public enum Kind {
    TENANT("tenant"),
    NAMESPACE("namespace"),
    STREAM("stream"),
    CACHE("cache");

    final String prefix;

    Kind(String prefix) {
      this.prefix = prefix;
    }
  }

  /** Parses the canonical form; empty for anything outside the grammar. */
  public static Optional<RbacObject> parse(String text) {
    if (text == null || text.length() > 300) {
      return Optional.empty();
    }
    int colon = text.indexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    String prefix = text.substring(0, colon);
    String[] parts = text.substring(colon + 1).split("/", -1);
    for (Kind kind : Kind.values()) {
      if (kind.prefix.equals(prefix)) {
        return of(kind, parts);
      }
    }
    return Optional.empty();
  }

  private static Optional<RbacObject> of(Kind kind, String[] parts) {
    int expected = kind == Kind.TENANT ? 1 : kind == Kind.NAMESPACE ? 2 : 3;
    if (parts.length != expected || !Names.isValid(parts[0])) {
      return Optional.empty();
    }
    for (int i = 1; i < parts.length - 1; i++) {
      if (!Names.isValid(parts[i])) {
        return Optional.empty();
      }
    }
    String last = parts[parts.length - 1];
    if (kind != Kind.TENANT && !WILDCARD.equals(last) && !Names.isValid(last)) {
      return Optional.empty();
    }
    return Optional.of(
        switch (kind) {
          case TENANT -> new RbacObject(kind, parts[0], null, null);
          case NAMESPACE -> new RbacObject(kind, parts[0], last, null);
          default -> new RbacObject(kind, parts[0], parts[1], last);
        });
  }

  public static RbacObject tenant(String tenant) {
    return new RbacObject(Kind.TENANT, tenant, null, null);
  }

  public static RbacObject namespace(String tenant, String namespace) {
    return new RbacObject(Kind.NAMESPACE, tenant, namespace, null);
  }

  public static RbacObject stream(String tenant, String namespace, String stream) {
    return new RbacObject(Kind.STREAM, tenant, namespace, stream);
  }

  public boolean isWildcard() {
    return WILDCARD.equals(kind == Kind.NAMESPACE ? namespace : name);
  }

  /**
   * Whether every object this one names is also named by {@code outer}: the same kind matched with
   * keyMatch ({@code *} only), or an object inside a tenant or namespace that {@code outer} is.
   */
  public boolean isWithin(RbacObject outer) {
    if (!tenant.equals(outer.tenant)) {
      return false;
    }
    switch (outer.kind) {
      case TENANT:
        return true;
      case NAMESPACE:
        if (kind == Kind.TENANT) {
          return false;
        }
        return outer.isWildcard()
            || (!(kind == Kind.NAMESPACE && isWildcard()) && namespace.equals(outer.namespace));
      default:
        return kind == outer.kind && KeyMatch.matches(toString(), outer.toString());
    }
  }

  @Override
  public String toString() {
    return switch (kind) {
      case TENANT -> "tenant:" + tenant;
      case NAMESPACE -> "namespace:" + tenant + "/" + namespace;
      default -> kind.prefix + ":" + tenant + "/" + namespace + "/" + name;
    };
  }
}

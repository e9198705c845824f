package dev.controlplane.rbac;

import org.casbin.jcasbin.util.BuiltInFunctions;

/**
 * Object matching with jcasbin's keyMatch: {@code *} is the only wildcard. keyMatch2 must not be
 * used with this grammar: it reads {@code :acme} in {@code stream:acme/ns1/*} as a path parameter,
 * so that policy would also match {@code stream:evil/ns1/x} — a tenant leak.
 */
final class KeyMatch {

  private KeyMatch() {}

  /** Whether {@code key} (a concrete or wildcard object) falls under {@code pattern}. */
  static boolean matches(String key, String pattern) {
    return BuiltInFunctions.keyMatch(key, pattern);
  }
}

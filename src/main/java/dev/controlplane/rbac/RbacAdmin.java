package dev.controlplane.rbac;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.tx.Tx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;

/**
 * RBAC administration with the scope rules of the spec: objects in the grammar and of the path's
 * tenant, known actions, and no write broader than the caller's own scope (a namespace manager
 * cannot touch another namespace or the tenant). Reads show only what the caller may view.
 */
@ApplicationScoped
public class RbacAdmin {

  @jakarta.inject.Inject dev.controlplane.cluster.WriteGuard guard;

  @Inject RbacStore store;
  @Inject TenantEnforcers enforcers;

  public List<PolicyRule> policies(String tenant, Collection<Permission> caller) {
    requireAny(caller, tenant, Action.RBAC_VIEW);
    return store.policies(tenant).stream()
        .filter(
            p ->
                RbacObject.parse(p.object())
                    .map(o -> holds(caller, Action.RBAC_VIEW, o))
                    .orElse(false))
        .toList();
  }

  public List<Grouping> groupings(String tenant, Collection<Permission> caller) {
    requireAny(caller, tenant, Action.RBAC_VIEW);
    return store.groupings(tenant).stream()
        .filter(g -> roleWithin(tenant, g.role(), caller, Action.RBAC_VIEW))
        .toList();
  }

  /** Adds the policy; returns whether it was created (false: it existed). */
  @Tx
  public boolean addPolicy(String tenant, PolicyRule rule, Collection<Permission> caller) {
    guard.requireLeader();
    checkPolicy(tenant, rule, caller);
    return store.addPolicy(tenant, rule);
  }

  @Tx
  public boolean removePolicy(String tenant, PolicyRule rule, Collection<Permission> caller) {
    guard.requireLeader();
    checkPolicy(tenant, rule, caller);
    return store.removePolicy(tenant, rule);
  }

  @Tx
  public boolean addGrouping(String tenant, Grouping grouping, Collection<Permission> caller) {
    guard.requireLeader();
    checkGrouping(tenant, grouping, caller);
    return store.addGrouping(tenant, grouping);
  }

  @Tx
  public boolean removeGrouping(String tenant, Grouping grouping, Collection<Permission> caller) {
    guard.requireLeader();
    checkGrouping(tenant, grouping, caller);
    return store.removeGrouping(tenant, grouping);
  }

  private void checkPolicy(String tenant, PolicyRule rule, Collection<Permission> caller) {
    requireAny(caller, tenant, Action.RBAC_POLICY_MANAGE);
    requireTenant(tenant);
    checkSubject("subject", rule.subject(), true);
    RbacObject object = parseObject(tenant, rule.object());
    Action action =
        Action.parse(rule.action())
            .orElseThrow(
                () ->
                    ControlPlaneException.validation(
                        "action", "unknown action '" + rule.action() + "'"));
    if (!action.appliesTo(object.kind())) {
      throw ControlPlaneException.validation(
          "action", action + " does not apply to " + object.kind().prefix + " objects");
    }
    if (!holds(caller, Action.RBAC_POLICY_MANAGE, object)) {
      throw forbidden(
          "the policy's object " + object + " is outside your rbac.policy.manage scope");
    }
  }

  private void checkGrouping(String tenant, Grouping grouping, Collection<Permission> caller) {
    requireAny(caller, tenant, Action.RBAC_ASSIGNMENT_MANAGE);
    requireTenant(tenant);
    checkSubject("principal", grouping.principal(), false);
    if (grouping.role() == null
        || !(grouping.role().startsWith("role:") || grouping.role().startsWith("group:"))) {
      throw ControlPlaneException.validation("role", "must be role:<name> or group:<name>");
    }
    checkSubject("role", grouping.role(), false);
    if (!roleWithin(tenant, grouping.role(), caller, Action.RBAC_ASSIGNMENT_MANAGE)) {
      throw forbidden(
          grouping.role() + " grants permissions outside your rbac.assignment.manage scope");
    }
  }

  /**
   * A write for a tenant that does not exist is a 404 (and an invalid name a 400), not a foreign
   * key violation; the tenant's row stays locked against deletion until the write commits.
   */
  private void requireTenant(String tenant) {
    if (!Names.isValid(tenant)) {
      throw ControlPlaneException.validation("path.tenant", "must be " + Names.RULE);
    }
    if (!store.lockTenant(tenant)) {
      throw ControlPlaneException.notFound("tenant " + tenant + " does not exist");
    }
  }

  /**
   * Whether every permission the role carries lies inside the caller's scope for {@code action}. A
   * role without permissions needs tenant scope: whatever it is given later reaches its members.
   */
  private boolean roleWithin(
      String tenant, String role, Collection<Permission> caller, Action action) {
    List<RbacObject> objects = enforcers.objectsOf(tenant, role);
    if (objects.isEmpty()) {
      return holds(caller, action, RbacObject.tenant(tenant));
    }
    return objects.stream().allMatch(o -> holds(caller, action, o));
  }

  private static boolean holds(Collection<Permission> caller, Action action, RbacObject object) {
    return Permission.anyCovers(caller, new Permission(action, object));
  }

  private static void requireAny(Collection<Permission> caller, String tenant, Action action) {
    boolean any =
        caller.stream().anyMatch(p -> p.action() == action && p.object().tenant().equals(tenant));
    if (!any) {
      throw forbidden("this needs " + action + " in tenant " + tenant);
    }
  }

  static RbacObject parseObject(String tenant, String text) {
    if (text != null && text.startsWith("tenant:*")) {
      throw ControlPlaneException.validation(
          "object", "tenant:* is not allowed: every object names one tenant");
    }
    RbacObject object =
        RbacObject.parse(text)
            .orElseThrow(
                () ->
                    ControlPlaneException.validation(
                        "object",
                        "'"
                            + text
                            + "' is not tenant:T, namespace:T/N|*, stream:T/N/S|* or cache:T/N/C|*"
                            + " (a wildcard only as the last segment)"));
    if (!object.tenant().equals(tenant)) {
      throw ControlPlaneException.validation(
          "object", "the object belongs to another tenant than " + tenant);
    }
    return object;
  }

  private static void checkSubject(String field, String subject, boolean allowRole) {
    if (subject == null) {
      throw ControlPlaneException.validation(field, "is required");
    }
    if (Subjects.isPrincipalId(subject) || Subjects.isGroup(subject)) {
      return;
    }
    if (Subjects.isRole(subject) && (allowRole || "role".equals(field))) {
      return;
    }
    throw ControlPlaneException.validation(
        field,
        "must be a principal id (64 lowercase hex), "
            + Subjects.GROUP_RULE
            + (allowRole ? " or role:<name> (" + Names.RULE + ")" : ""));
  }

  private static ControlPlaneException forbidden(String message) {
    return new ControlPlaneException(ErrorCode.FORBIDDEN, message);
  }
}

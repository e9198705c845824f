package dev.controlplane.rbac;

import dev.controlplane.audit.AuditEntry;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
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

  @Inject RbacStore store;
  @Inject WritePipeline pipeline;
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
  public boolean addPolicy(String tenant, PolicyRule rule, Collection<Permission> caller) {
    return pipeline.execute(
        write -> {
          checkPolicy(write, tenant, rule, caller);
          if (policies(write, tenant).contains(rule)) {
            return false;
          }
          RbacStore.addPolicy(write, tenant, rule);
          write.audit(policyEntry("add", tenant, rule));
          return true;
        });
  }

  /** Removes the policy; returns whether it existed. */
  public boolean removePolicy(String tenant, PolicyRule rule, Collection<Permission> caller) {
    return pipeline.execute(
        write -> {
          checkPolicy(write, tenant, rule, caller);
          if (!policies(write, tenant).contains(rule)) {
            return false;
          }
          write.sql(RbacStore.DELETE_POLICY, tenant, rule.subject(), rule.object(), rule.action());
          write.audit(policyEntry("remove", tenant, rule));
          return true;
        });
  }

  /** Adds the grouping; returns whether it was created (false: it existed). */
  public boolean addGrouping(String tenant, Grouping grouping, Collection<Permission> caller) {
    return pipeline.execute(
        write -> {
          List<Grouping> current = checkGrouping(write, tenant, grouping, caller);
          if (current.contains(grouping)) {
            return false;
          }
          RbacStore.addGrouping(write, tenant, grouping);
          write.audit(groupingEntry("add", tenant, grouping));
          return true;
        });
  }

  /** Removes the grouping; returns whether it existed. */
  public boolean removeGrouping(String tenant, Grouping grouping, Collection<Permission> caller) {
    return pipeline.execute(
        write -> {
          List<Grouping> current = checkGrouping(write, tenant, grouping, caller);
          if (!current.contains(grouping)) {
            return false;
          }
          write.sql(RbacStore.DELETE_GROUPING, tenant, grouping.principal(), grouping.role());
          write.audit(groupingEntry("remove", tenant, grouping));
          return true;
        });
  }

  private static AuditEntry policyEntry(String verb, String tenant, PolicyRule rule) {
    return AuditEntry.of("rbac", "rbac.policy." + verb, verb, tenant)
        .on(rule.object())
        .with("subject", rule.subject())
        .with("object", rule.object())
        .with("action", rule.action());
  }

  private static AuditEntry groupingEntry(String verb, String tenant, Grouping grouping) {
    return AuditEntry.of("rbac", "rbac.grouping." + verb, verb, tenant)
        .on(grouping.role())
        .with("principal", grouping.principal())
        .with("role", grouping.role());
  }

  private static List<PolicyRule> policies(WriteContext write, String tenant) {
    return write.query(c -> RbacStore.policies(c, tenant));
  }

  private static void checkPolicy(
      WriteContext write, String tenant, PolicyRule rule, Collection<Permission> caller) {
    requireAny(caller, tenant, Action.RBAC_POLICY_MANAGE);
    requireTenant(write, tenant);
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

  /**
   * The scope rules of a grouping write; returns the tenant's groupings as the batch sees them. The
   * role's permissions are judged on the rows inside the batch transaction, so a policy added by an
   * earlier write of the same batch counts.
   */
  private static List<Grouping> checkGrouping(
      WriteContext write, String tenant, Grouping grouping, Collection<Permission> caller) {
    requireAny(caller, tenant, Action.RBAC_ASSIGNMENT_MANAGE);
    requireTenant(write, tenant);
    checkSubject("principal", grouping.principal(), false);
    if (grouping.role() == null
        || !(grouping.role().startsWith("role:") || grouping.role().startsWith("group:"))) {
      throw ControlPlaneException.validation("role", "must be role:<name> or group:<name>");
    }
    checkSubject("role", grouping.role(), false);
    List<PolicyRule> policies = policies(write, tenant);
    List<Grouping> groupings = write.query(c -> RbacStore.groupings(c, tenant));
    List<RbacObject> objects =
        TenantEnforcers.objectsOf(tenant, grouping.role(), policies, groupings);
    if (!within(tenant, objects, caller, Action.RBAC_ASSIGNMENT_MANAGE)) {
      throw forbidden(
          grouping.role() + " grants permissions outside your rbac.assignment.manage scope");
    }
    return groupings;
  }

  /**
   * A write for a tenant that does not exist is a 404 (and an invalid name a 400), not a foreign
   * key violation; the pipeline applies writes one at a time, so the tenant cannot be deleted
   * between this check and the commit.
   */
  private static void requireTenant(WriteContext write, String tenant) {
    if (!Names.isValid(tenant)) {
      throw ControlPlaneException.validation("path.tenant", "must be " + Names.RULE);
    }
    if (write.image().tenant(tenant).isEmpty()) {
      throw ControlPlaneException.notFound("tenant " + tenant + " does not exist");
    }
  }

  /**
   * Whether every permission the role carries lies inside the caller's scope for {@code action}. A
   * role without permissions needs tenant scope: whatever it is given later reaches its members.
   */
  private boolean roleWithin(
      String tenant, String role, Collection<Permission> caller, Action action) {
    return within(tenant, enforcers.objectsOf(tenant, role), caller, action);
  }

  private static boolean within(
      String tenant, List<RbacObject> objects, Collection<Permission> caller, Action action) {
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

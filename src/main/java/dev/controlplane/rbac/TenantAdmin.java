package dev.controlplane.rbac;

import java.util.Collection;
import java.util.List;

/**
 * The tenant administrator of decisions.md: {@code role:tenant-admin}, which bootstrap gives each
 * initial admin, holds these four actions on {@code tenant:T}. Together they reach every permission
 * in the tenant (a holder can write any policy and assign any role), so operations that could
 * otherwise grant more than the caller holds — adding or re-pointing an issuer — require all of
 * them.
 */
public final class TenantAdmin {

  public static final String ROLE = "role:tenant-admin";

  public static final List<Action> ACTIONS =
      List.of(
          Action.TENANT_MANAGE,
          Action.RBAC_VIEW,
          Action.RBAC_POLICY_MANAGE,
          Action.RBAC_ASSIGNMENT_MANAGE);

  private TenantAdmin() {}

  /** The actions of the set that {@code held} does not cover on {@code tenant:T}. */
  public static List<Action> missing(Collection<Permission> held, String tenant) {
    RbacObject scope = RbacObject.tenant(tenant);
    return ACTIONS.stream()
        .filter(a -> !Permission.anyCovers(held, new Permission(a, scope)))
        .toList();
  }
}

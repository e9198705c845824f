package dev.controlplane.rbac;

import dev.controlplane.cache.TenantCache;
import dev.controlplane.cache.TenantChanges;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.casbin.jcasbin.main.SyncedEnforcer;
import org.casbin.jcasbin.model.Model;

/**
 * One jcasbin enforcer per tenant (the tenant is the domain), loaded from the tables once and kept
 * in memory until the tenant's RBAC rows change ({@link TenantChanges}: at once on the node that
 * wrote, within milliseconds on the others through the tables' notification trigger). An evaluation
 * reads no database at all, which is what lets every node serve token exchanges at the speed of the
 * crypto.
 */
@ApplicationScoped
public class TenantEnforcers {

  /** Objects match with keyMatch ({@code *} only); keyMatch2 would leak across tenants. */
  static final String MODEL =
      """
      [request_definition]
      r = sub, dom, obj, act

      [policy_definition]
      p = sub, dom, obj, act

      [role_definition]
      g = _, _, _

      [policy_effect]
      e = some(where (p.eft == allow))

      [matchers]
      m = g(r.sub, p.sub, r.dom) && r.dom == p.dom && keyMatch(r.obj, p.obj) && r.act == p.act
      """;

  @Inject RbacStore store;
  @Inject TenantChanges changes;

  /** A tenant's enforcer and the {@code rbac_revisions} revision its rows were read at. */
  private record Loaded(SyncedEnforcer enforcer, long revision) {}

  /** Permissions granted, and the RBAC revision they were computed from (the audit log's). */
  public record Grant(List<Permission> perms, long revision) {}

  private static final int LOAD_ATTEMPTS = 5;

  private TenantCache<Loaded> cache;

  @PostConstruct
  void init() {
    cache = changes.cache(this::load);
  }

  /**
   * The permissions granted to {@code principal} in {@code tenant}, through its roles and groups
   * and through the transient {@code group:} edges of this request.
   */
  public List<Permission> granted(String tenant, String principal, Set<String> transientGroups) {
    return grant(tenant, principal, transientGroups).perms();
  }

  /** {@link #granted}, with the RBAC revision the permissions were computed from. */
  public Grant grant(String tenant, String principal, Set<String> transientGroups) {
    List<String> subjects = new ArrayList<>();
    subjects.add(principal);
    subjects.addAll(transientGroups);
    Loaded loaded = cache.get(tenant);
    return new Grant(permissions(loaded.enforcer(), tenant, subjects), loaded.revision());
  }

  private static List<Permission> permissions(
      SyncedEnforcer enforcer, String tenant, List<String> subjects) {
    Set<Permission> out = new LinkedHashSet<>();
    for (String subject : subjects) {
      for (List<String> rule : enforcer.getImplicitPermissionsForUser(subject, tenant)) {
        // rule = [subject, domain, object, action]; rows written outside the grammar grant nothing.
        Permission.of(rule.get(3), rule.get(2))
            .filter(p -> p.object().tenant().equals(tenant))
            .ifPresent(out::add);
      }
    }
    return List.copyOf(out);
  }

  /** The objects of every permission {@code subject} (a role or group) carries. */
  public List<RbacObject> objectsOf(String tenant, String subject) {
    return objects(current(tenant), tenant, subject);
  }

  /**
   * The same over the given rows: what the write pipeline sees inside its batch, earlier writes of
   * the batch included (a throwaway enforcer, never cached).
   */
  static List<RbacObject> objectsOf(
      String tenant, String subject, List<PolicyRule> policies, List<Grouping> groupings) {
    SyncedEnforcer enforcer =
        new SyncedEnforcer(model(), new TableAdapter(policies, groupings, tenant));
    enforcer.enableAutoSave(false);
    return objects(enforcer, tenant, subject);
  }

  private static List<RbacObject> objects(SyncedEnforcer enforcer, String tenant, String subject) {
    return permissions(enforcer, tenant, List.of(subject)).stream()
        .map(Permission::object)
        .toList();
  }

  /**
   * Whether the direct (non-inherited) model allows the request: keyMatch on objects, exact
   * actions.
   */
  public boolean enforce(String tenant, String subject, String object, String action) {
    return current(tenant).enforce(subject, tenant, object, action);
  }

  private SyncedEnforcer current(String tenant) {
    return cache.get(tenant).enforcer();
  }

  /**
   * Loads the rows between two reads of the tenant's revision: every change bumps it in its own
   * transaction, so equal readings mean the rows are exactly that revision's. A change racing the
   * load makes it read again (and its invalidation drops whatever was loaded meanwhile).
   */
  private Loaded load(String tenant) {
    long before = store.revision(tenant);
    for (int attempt = 1; ; attempt++) {
      SyncedEnforcer enforcer = new SyncedEnforcer(model(), new TableAdapter(store, tenant));
      enforcer.enableAutoSave(false);
      long after = store.revision(tenant);
      if (after == before || attempt == LOAD_ATTEMPTS) {
        return new Loaded(enforcer, before);
      }
      before = after;
    }
  }

  static Model model() {
    Model model = new Model();
    model.loadModelFromText(MODEL);
    return model;
  }
}

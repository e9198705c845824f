package dev.controlplane.bootstrap;

import dev.controlplane.auth.IssuerRecord;
import dev.controlplane.auth.IssuerStore;
import dev.controlplane.auth.SigningKeys;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ControlPlaneException.FieldError;
import dev.controlplane.metadata.log.ChangeLog;
import dev.controlplane.metadata.log.VersionedWrite;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.metadata.store.ResourceStore;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Grouping;
import dev.controlplane.rbac.PolicyRule;
import dev.controlplane.rbac.RbacStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Initializes a tenant's authentication in one transaction (spec section 5, bootstrap). */
@ApplicationScoped
public class BootstrapService {

  public static final String ADMIN_ROLE = "role:tenant-admin";
  static final List<Action> ADMIN_ACTIONS =
      List.of(
          Action.TENANT_MANAGE,
          Action.RBAC_VIEW,
          Action.RBAC_POLICY_MANAGE,
          Action.RBAC_ASSIGNMENT_MANAGE);
  private static final Pattern PRINCIPAL_ID = Pattern.compile("^[0-9a-f]{64}$");

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  @Inject ChangeLog changeLog;
  @Inject ResourceStore store;
  @Inject IssuerStore issuers;
  @Inject SigningKeys keys;
  @Inject RbacStore rbac;
  @Inject AuthConfig config;

  /** What to seed. */
  public record Request(
      String displayName, List<IssuerRecord> issuers, List<String> adminPrincipals) {}

  /** What was seeded. */
  public record Result(
      String tenant,
      String displayName,
      List<IssuerRecord> issuers,
      List<String> adminPrincipals) {}

  @Transactional
  public Result initialize(String tenant, Request request) {
    validate(tenant, request);
    VersionedWrite write = changeLog.begin();
    var existing = store.tenant(tenant);
    if (existing.isPresent() && initialized(tenant)) {
      throw ControlPlaneException.conflict("tenant " + tenant + " is already initialized");
    }
    if (existing.isEmpty()) {
      write.put(new Tenant(tenant, request.displayName(), null, null, 0), null);
    }
    request.issuers().forEach(i -> issuers.upsert(tenant, i));
    keys.createFirst(tenant);
    String object = "tenant:" + tenant;
    ADMIN_ACTIONS.forEach(
        a -> rbac.addPolicy(tenant, new PolicyRule(ADMIN_ROLE, object, a.wireName())));
    request.adminPrincipals().forEach(p -> rbac.addGrouping(tenant, new Grouping(p, ADMIN_ROLE)));
    return new Result(tenant, request.displayName(), request.issuers(), request.adminPrincipals());
  }

  /** A tenant is initialized once it has a signing key: bootstrap ran, or a token was issued. */
  private boolean initialized(String tenant) {
    return !em.createNativeQuery("SELECT 1 FROM signing_keys WHERE tenant = ?1 LIMIT 1")
        .setParameter(1, tenant)
        .getResultList()
        .isEmpty();
  }

  private void validate(String tenant, Request request) {
    List<FieldError> errors = new ArrayList<>();
    if (!Names.isValid(tenant)) {
      errors.add(new FieldError("tenant_id", Names.RULE));
    }
    if (request.displayName() != null && request.displayName().length() > 256) {
      errors.add(new FieldError("display_name", "at most 256 characters"));
    }
    if (request.issuers().isEmpty()) {
      errors.add(new FieldError("idp_issuers", "at least one issuer is required"));
    }
    if (request.adminPrincipals().isEmpty()) {
      errors.add(new FieldError("initial_admin_principals", "at least one principal is required"));
    }
    for (String p : request.adminPrincipals()) {
      boolean group = p != null && p.startsWith("group:") && Names.isValid(p.substring(6));
      if (p == null || !(group || PRINCIPAL_ID.matcher(p).matches())) {
        errors.add(
            new FieldError(
                "initial_admin_principals",
                "'" + p + "' is not a principal id (64 lowercase hex) or group:<name>"));
      }
    }
    if (!errors.isEmpty()) {
      throw ControlPlaneException.validation(errors);
    }
    for (int i = 0; i < request.issuers().size(); i++) {
      request.issuers().get(i).validated(config.allowHttp(), "idp_issuers[" + i + "].");
    }
  }
}

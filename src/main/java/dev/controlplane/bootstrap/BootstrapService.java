package dev.controlplane.bootstrap;

import dev.controlplane.audit.AuditEntry;
import dev.controlplane.auth.AddressPolicy;
import dev.controlplane.auth.IssuerAdmin;
import dev.controlplane.auth.IssuerRecord;
import dev.controlplane.auth.IssuerStore;
import dev.controlplane.auth.SigningKeys;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ControlPlaneException.FieldError;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.metadata.model.Tenant;
import dev.controlplane.rbac.Grouping;
import dev.controlplane.rbac.PolicyRule;
import dev.controlplane.rbac.RbacStore;
import dev.controlplane.rbac.Subjects;
import dev.controlplane.rbac.TenantAdmin;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * Initializes a new tenant's authentication in one transaction (spec section 5, bootstrap). It only
 * ever creates: a tenant that exists already — made through the API, or bootstrapped before — is
 * refused with 409, so the bootstrap secret can never replace a live tenant's issuers or add admins
 * to it.
 */
@ApplicationScoped
public class BootstrapService {

  public static final String ADMIN_ROLE = TenantAdmin.ROLE;

  @Inject WritePipeline pipeline;
  @Inject SigningKeys keys;
  @Inject AuthConfig config;

  private AddressPolicy addresses;

  @PostConstruct
  void init() {
    addresses = new AddressPolicy(config.allowedNetworks());
  }

  /** What to seed. */
  public record Request(
      String displayName, List<IssuerRecord> issuers, List<String> adminPrincipals) {}

  /** What was seeded. */
  public record Result(
      String tenant,
      String displayName,
      List<IssuerRecord> issuers,
      List<String> adminPrincipals) {}

  /** Seeds the tenant, its issuers, its first key and its admins: one write, one transaction. */
  public Result initialize(String tenant, Request request) {
    validate(tenant, request);
    return pipeline.execute(write -> seed(write, tenant, request));
  }

  private Result seed(WriteContext write, String tenant, Request request) {
    if (write.image().tenant(tenant).isPresent()) {
      throw ControlPlaneException.conflict(
          "tenant "
              + tenant
              + " already exists; bootstrap initializes only new tenants (change an existing"
              + " tenant's issuers and admins through its API)");
    }
    write.put(new Tenant(tenant, request.displayName(), null, null, 0), null);
    request.issuers().forEach(i -> IssuerStore.upsert(write, tenant, i));
    keys.createFirst(write, tenant);
    String object = "tenant:" + tenant;
    TenantAdmin.ACTIONS.forEach(
        a -> RbacStore.addPolicy(write, tenant, new PolicyRule(ADMIN_ROLE, object, a.wireName())));
    request
        .adminPrincipals()
        .forEach(p -> RbacStore.addGrouping(write, tenant, new Grouping(p, ADMIN_ROLE)));
    write.audit(
        AuditEntry.of("bootstrap", "bootstrap.initialize", "initialize", tenant)
            .on("tenant:" + tenant)
            .with("issuers", request.issuers().stream().map(IssuerRecord::issuer).toList())
            .with("admin_principals", request.adminPrincipals()));
    return new Result(tenant, request.displayName(), request.issuers(), request.adminPrincipals());
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
      if (!(Subjects.isPrincipalId(p) || Subjects.isGroup(p))) {
        errors.add(
            new FieldError(
                "initial_admin_principals",
                "'" + p + "' is not a principal id (64 lowercase hex) or " + Subjects.GROUP_RULE));
      }
    }
    if (!errors.isEmpty()) {
      throw ControlPlaneException.validation(errors);
    }
    List<IssuerRecord> given = request.issuers();
    for (int i = 0; i < given.size(); i++) {
      IssuerRecord issuer =
          given.get(i).validated(config.allowHttp(), addresses, "idp_issuers[" + i + "].");
      IssuerAdmin.groupClash(issuer, given.subList(0, i))
          .ifPresent(
              other -> {
                throw ControlPlaneException.validation(
                    "idp_issuers", IssuerAdmin.clashMessage(issuer, other));
              });
    }
  }
}

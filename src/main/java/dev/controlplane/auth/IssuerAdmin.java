package dev.controlplane.auth;

import dev.controlplane.audit.AuditEntry;
import dev.controlplane.config.AuthConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.rbac.Action;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.RbacObject;
import dev.controlplane.rbac.Subjects;
import dev.controlplane.rbac.TenantAdmin;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Administration of a tenant's trusted issuers, a trust root: whoever chooses an issuer's keys or
 * claim mappings can mint tokens for every principal of that issuer, the tenant's admins included.
 * Creating or changing an issuer therefore needs the whole tenant-admin set ({@link TenantAdmin}),
 * which already reaches every permission in the tenant, so nothing can be gained through it.
 * Listing and deleting (which only removes trust) need {@code tenant.manage}.
 */
@ApplicationScoped
public class IssuerAdmin {

  @Inject IssuerStore store;
  @Inject AuthConfig config;
  @Inject WritePipeline pipeline;

  private AddressPolicy addresses;

  @PostConstruct
  void init() {
    addresses = new AddressPolicy(config.allowedNetworks());
  }

  public List<IssuerRecord> list(String tenant, Collection<Permission> caller) {
    require(caller, tenant, Action.TENANT_MANAGE);
    return store.list(tenant);
  }

  /** Creates or replaces the issuer; true when it was created. */
  public boolean upsert(String tenant, IssuerRecord record, Collection<Permission> caller) {
    List<Action> missing = TenantAdmin.missing(caller, tenant);
    if (!missing.isEmpty()) {
      throw new ControlPlaneException(
          ErrorCode.FORBIDDEN,
          "adding or changing an issuer needs the tenant-admin set on tenant:"
              + tenant
              + " (tenant.manage, rbac.view, rbac.policy.manage, rbac.assignment.manage);"
              + " missing "
              + missing);
    }
    IssuerRecord valid = record.validated(config.allowHttp(), addresses, "");
    return pipeline.execute(
        write -> {
          requireExisting(write, tenant);
          List<IssuerRecord> current = IssuerStore.list(write, tenant);
          groupClash(valid, current)
              .ifPresent(
                  other -> {
                    throw ControlPlaneException.conflict(clashMessage(valid, other));
                  });
          IssuerStore.upsert(write, tenant, valid);
          boolean created = current.stream().noneMatch(i -> i.issuer().equals(valid.issuer()));
          String verb = created ? "create" : "update";
          write.audit(
              AuditEntry.of("issuer", "issuer." + verb, verb, tenant)
                  .on("issuer:" + valid.issuer())
                  .with("issuer", valid.issuer())
                  .with("audiences", valid.audiences())
                  .with("discovery_url", valid.discoveryUrl())
                  .with("jwks_url", valid.jwksUrl())
                  .with("groups_claim", valid.groupsClaim())
                  .with("groups_prefix", valid.groupsPrefix()));
          return created;
        });
  }

  public void delete(String tenant, String issuer, Collection<Permission> caller) {
    require(caller, tenant, Action.TENANT_MANAGE);
    pipeline.execute(
        write -> {
          requireExisting(write, tenant);
          if (IssuerStore.list(write, tenant).stream().noneMatch(i -> i.issuer().equals(issuer))) {
            throw ControlPlaneException.notFound(
                "issuer " + issuer + " is not configured for tenant " + tenant);
          }
          IssuerStore.delete(write, tenant, issuer);
          write.audit(
              AuditEntry.of("issuer", "issuer.delete", "delete", tenant)
                  .on("issuer:" + issuer)
                  .with("issuer", issuer));
          return null;
        });
  }

  private static void requireExisting(WriteContext write, String tenant) {
    if (!Names.isValid(tenant)) {
      throw ControlPlaneException.validation("path.tenant", "must be " + Names.RULE);
    }
    if (write.image().tenant(tenant).isEmpty()) {
      throw ControlPlaneException.notFound("tenant " + tenant + " does not exist");
    }
  }

  /**
   * Another group-mapping issuer with the same groups prefix as {@code candidate}: their groups
   * would take the same RBAC names. Distinct prefixes may nest ({@code ""} and {@code partner/}): a
   * group subject belongs to the issuer with the longest prefix it starts with ({@link
   * #assertingIssuer}).
   */
  public static Optional<IssuerRecord> groupClash(
      IssuerRecord candidate, Collection<IssuerRecord> others) {
    if (!candidate.mapsGroups()) {
      return Optional.empty();
    }
    return others.stream()
        .filter(o -> o.mapsGroups() && !o.issuer().equals(candidate.issuer()))
        .filter(o -> o.groupsPrefix().equals(candidate.groupsPrefix()))
        .findFirst();
  }

  /**
   * The issuer whose tokens may assert group subject {@code subject}: of the group-mapping issuers,
   * the one with the longest groups prefix that {@code group:<prefix>} begins the subject with.
   * Empty for other subjects, for a group no issuer asserts, and when two issuers share that prefix
   * (rows that bypassed the rule: their groups count for nothing).
   */
  public static Optional<String> assertingIssuer(String subject, Collection<IssuerRecord> issuers) {
    if (subject == null || !subject.startsWith(Subjects.GROUP)) {
      return Optional.empty();
    }
    List<IssuerRecord> matching =
        issuers.stream()
            .filter(IssuerRecord::mapsGroups)
            .filter(i -> subject.startsWith(Subjects.GROUP + i.groupsPrefix()))
            .toList();
    int longest = matching.stream().mapToInt(i -> i.groupsPrefix().length()).max().orElse(-1);
    List<IssuerRecord> owners =
        matching.stream().filter(i -> i.groupsPrefix().length() == longest).toList();
    return owners.size() == 1 ? Optional.of(owners.get(0).issuer()) : Optional.empty();
  }

  public static String clashMessage(IssuerRecord candidate, IssuerRecord other) {
    return "issuer "
        + other.issuer()
        + " already maps groups with groups_prefix '"
        + other.groupsPrefix()
        + "', so the groups of "
        + candidate.issuer()
        + " would take the same names: give it another groups_prefix (for example 'partner/')";
  }

  private static void require(Collection<Permission> caller, String tenant, Action action) {
    RbacObject scope = RbacObject.tenant(tenant);
    if (!Permission.anyCovers(caller, new Permission(action, scope))) {
      throw new ControlPlaneException(ErrorCode.FORBIDDEN, "this needs " + action + " on " + scope);
    }
  }
}

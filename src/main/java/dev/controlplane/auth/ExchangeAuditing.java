package dev.controlplane.auth;

import dev.controlplane.audit.Actor;
import dev.controlplane.audit.AuditEntry;
import dev.controlplane.audit.AuditRecord;
import dev.controlplane.audit.ExchangeAudit;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Names;
import dev.controlplane.rbac.Permission;
import dev.controlplane.rbac.TenantEnforcers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The token exchange's audit records. An issued token is tied to what it was made from: its {@code
 * jti} and expiry, the upstream {@code iss} and {@code sub}, the permissions it carries and the
 * tenant's RBAC revision they were computed at. A refusal carries its stable code as the reason and
 * the internal detail (the same text the service logs; never the token) in {@code metadata.detail}.
 */
@ApplicationScoped
public class ExchangeAuditing {

  static final String OPERATION = "token.exchange";

  @Inject ExchangeAudit audit;

  void issued(
      String tenant,
      Actor caller,
      UpstreamIdentity who,
      TenantEnforcers.Grant grant,
      ServiceTokens.Issued token) {
    AuditEntry entry =
        entry(tenant, who)
            .with("jti", token.jti())
            .with("expires_at", token.expiresAt().toString())
            .with("perms", grant.perms().stream().map(Permission::toString).toList())
            .with("rbac_revision", grant.revision());
    audit.record(entry, AuditRecord.SUCCESS, null, as(caller, who));
  }

  void forbidden(String tenant, Actor caller, UpstreamIdentity who, TenantEnforcers.Grant grant) {
    AuditEntry entry =
        entry(tenant, who)
            .with("detail", "no permission left after RBAC evaluation and the request's hints")
            .with("granted", grant.perms().size())
            .with("rbac_revision", grant.revision());
    audit.record(entry, AuditRecord.REFUSED, ErrorCode.FORBIDDEN.problemCode(), as(caller, who));
  }

  void refused(String tenant, Actor caller, String code, String detail) {
    AuditEntry entry =
        AuditEntry.of("token_exchange", OPERATION, "issue", scoped(tenant))
            .on(scoped(tenant) == null ? null : "tenant:" + tenant)
            .with("detail", detail);
    audit.record(entry, AuditRecord.REFUSED, code, caller);
  }

  private static AuditEntry entry(String tenant, UpstreamIdentity who) {
    return AuditEntry.of("token_exchange", OPERATION, "issue", tenant)
        .on("tenant:" + tenant)
        .with("upstream_iss", who.issuer())
        .with("upstream_sub", who.subject())
        .with("groups", who.groups().stream().sorted().toList());
  }

  private static Actor as(Actor caller, UpstreamIdentity who) {
    return caller.as(who.principal(), Actor.USER);
  }

  /** A path tenant that is not even a valid name is not stored as one. */
  private static String scoped(String tenant) {
    return tenant != null && Names.isValid(tenant) ? tenant : null;
  }
}

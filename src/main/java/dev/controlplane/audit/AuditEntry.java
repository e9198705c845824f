package dev.controlplane.audit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an operation did, in the terms of the audit log: which kind of event, which operation and
 * action, on what. The write pipeline adds who, when, from where, the result and the metadata
 * version ({@link AuditRecord}).
 *
 * @param eventType the area: {@code metadata}, {@code rbac}, {@code issuer}, {@code signing_key},
 *     {@code broker}, {@code bootstrap}, {@code token_exchange}
 * @param operation what was asked, {@code <thing>.<verb>}: {@code stream.create}, {@code
 *     rbac.policy.add}, {@code signing_key.rotate}, {@code token.exchange}
 * @param action the verb alone: {@code create}, {@code update}, {@code delete}, {@code add}, {@code
 *     remove}, {@code rotate}, {@code issue}, ...
 * @param resource the object acted on, in the RBAC object grammar where one exists ({@code
 *     stream:acme/orders/payments}), else {@code <kind>:<name>}
 * @param metadata details particular to the operation; never a token, secret or key material
 */
public record AuditEntry(
    String eventType,
    String operation,
    String action,
    String tenant,
    String namespace,
    String stream,
    String resource,
    Map<String, Object> metadata) {

  public AuditEntry {
    metadata = metadata == null ? Map.of() : java.util.Collections.unmodifiableMap(metadata);
  }

  /** An entry about {@code tenant} (or nothing tenant-scoped when null). */
  public static AuditEntry of(String eventType, String operation, String action, String tenant) {
    return new AuditEntry(eventType, operation, action, tenant, null, null, null, Map.of());
  }

  public AuditEntry on(String resource) {
    return new AuditEntry(
        eventType, operation, action, tenant, namespace, stream, resource, metadata);
  }

  public AuditEntry in(String namespace, String stream) {
    return new AuditEntry(
        eventType, operation, action, tenant, namespace, stream, resource, metadata);
  }

  /** The entry with one more metadata field ({@code null} values are left out). */
  public AuditEntry with(String key, Object value) {
    if (value == null) {
      return this;
    }
    Map<String, Object> more = new LinkedHashMap<>(metadata);
    more.put(key, value);
    return new AuditEntry(eventType, operation, action, tenant, namespace, stream, resource, more);
  }
}

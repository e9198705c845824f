package dev.controlplane.audit;

import java.time.Instant;

/**
 * One row of the audit log: an {@link AuditEntry} with who did it, when, from where, on which node,
 * with what result, and the metadata version its change committed at (null when it changed no
 * versioned metadata).
 *
 * @param result {@code success}, or {@code refused} with a stable {@code reason} code (a refused
 *     token exchange; refused writes change nothing and leave no record)
 */
public record AuditRecord(
    Instant at,
    AuditEntry entry,
    String result,
    String reason,
    Actor actor,
    String node,
    Long version) {

  public static final String SUCCESS = "success";
  public static final String REFUSED = "refused";
}

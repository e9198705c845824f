/**
 * The audit log (spec section 6): who did what, from where, with what result. Owns the record
 * ({@link dev.controlplane.audit.AuditRecord}), the caller's identity as the adapters hand it over
 * ({@link dev.controlplane.audit.Actor}, bound to the request's thread by {@link
 * dev.controlplane.audit.CurrentActor}), the JSON lines for shipping ({@link
 * dev.controlplane.audit.AuditLog}), the token exchange's own appender, reads and retention. Writes
 * are recorded by the write pipeline in the transaction of the change they describe.
 */
package dev.controlplane.audit;

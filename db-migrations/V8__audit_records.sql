-- The audit log (spec section 6): one row per control-plane operation. A write's record is inserted
-- by the write pipeline in the transaction of the change it describes; token exchanges (which change
-- nothing) are inserted by the node that served them.
--
-- No foreign key to tenants, on purpose: deleting a tenant must not delete the record of who did
-- what to it (nor the record of the deletion itself). Rows go only by retention
-- (SERVICE_CONTROLPLANE_AUDIT_RETENTION), in bounded deletes by the leader.
CREATE TABLE audit_records (
    id              bigserial   PRIMARY KEY,
    at              timestamptz NOT NULL DEFAULT now(),
    event_type      text        NOT NULL,
    operation       text        NOT NULL,
    action          text        NOT NULL,
    result          text        NOT NULL,
    reason          text,
    principal       text        NOT NULL,
    principal_type  text        NOT NULL,
    tenant          text,
    namespace       text,
    stream          text,
    resource        text,
    metadata        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    source_ip       text,
    user_agent      text,
    node            text,
    version         bigint
);

-- A tenant's records newest first (the read API pages by id), by time, by principal; retention by time.
CREATE INDEX audit_records_tenant_id ON audit_records (tenant, id);
CREATE INDEX audit_records_tenant_at ON audit_records (tenant, at);
CREATE INDEX audit_records_principal ON audit_records (principal, at);
CREATE INDEX audit_records_at ON audit_records (at);

-- Key lifecycle: a passive key with activate_after set and activated_at null is the *next* key,
-- published in the JWKS before it signs; the rotation duty activates it when activate_after passes.
ALTER TABLE signing_keys ADD COLUMN activate_after timestamptz;
CREATE INDEX signing_keys_by_tenant ON signing_keys (tenant, state);

-- Deleting a tenant removes its authentication data with it.
ALTER TABLE idp_issuers DROP CONSTRAINT idp_issuers_tenant_fkey,
  ADD CONSTRAINT idp_issuers_tenant_fkey FOREIGN KEY (tenant) REFERENCES tenants (name) ON DELETE CASCADE;
ALTER TABLE signing_keys DROP CONSTRAINT signing_keys_tenant_fkey,
  ADD CONSTRAINT signing_keys_tenant_fkey FOREIGN KEY (tenant) REFERENCES tenants (name) ON DELETE CASCADE;
ALTER TABLE rbac_policies DROP CONSTRAINT rbac_policies_tenant_fkey,
  ADD CONSTRAINT rbac_policies_tenant_fkey FOREIGN KEY (tenant) REFERENCES tenants (name) ON DELETE CASCADE;
ALTER TABLE rbac_groupings DROP CONSTRAINT rbac_groupings_tenant_fkey,
  ADD CONSTRAINT rbac_groupings_tenant_fkey FOREIGN KEY (tenant) REFERENCES tenants (name) ON DELETE CASCADE;
ALTER TABLE rbac_revisions DROP CONSTRAINT rbac_revisions_tenant_fkey,
  ADD CONSTRAINT rbac_revisions_tenant_fkey FOREIGN KEY (tenant) REFERENCES tenants (name) ON DELETE CASCADE;

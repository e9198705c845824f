-- Trust boundaries between a tenant's issuers and between a tenant's incarnations (issue 14).

-- Groups are bound to the issuer that asserted them: a token's group <name> becomes the RBAC
-- subject group:<groups_prefix><name>. The prefixes of a tenant's group-mapping issuers must be
-- prefix-free (the service checks it on every write), so every group subject names one issuer.
ALTER TABLE idp_issuers ADD COLUMN groups_prefix text NOT NULL DEFAULT '';

-- The principal id is SHA-256 of iss + '|' + sub. Subjects may contain '|' (Auth0 sends
-- auth0|123), so an issuer must not: then the first '|' always ends the issuer and no two
-- (iss, sub) pairs share a principal id. NOT VALID: rows written before this rule are left for
-- the operator to fix (the service refuses their tokens); every new or changed row is checked.
ALTER TABLE idp_issuers ADD CONSTRAINT idp_issuers_issuer_without_pipe
    CHECK (strpos(issuer, '|') = 0) NOT VALID;

-- RBAC revisions come from one sequence for every tenant, so no revision number is ever used
-- twice: a deleted and re-created tenant cannot meet a node's cached enforcer of its predecessor
-- at an equal revision (the old trigger restarted at 1 with the tenant's new revision row).
CREATE SEQUENCE rbac_revision_seq;
SELECT setval('rbac_revision_seq', coalesce((SELECT max(revision) FROM rbac_revisions), 0) + 1);

CREATE OR REPLACE FUNCTION bump_rbac_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO rbac_revisions (tenant, revision) VALUES (NEW.tenant, nextval('rbac_revision_seq'))
            ON CONFLICT (tenant) DO UPDATE SET revision = nextval('rbac_revision_seq');
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        -- An update only: when the tenant itself is being deleted its revision row goes with it,
        -- and an insert would break the foreign key.
        UPDATE rbac_revisions SET revision = nextval('rbac_revision_seq') WHERE tenant = OLD.tenant;
    END IF;
    RETURN NULL;
END
$$;

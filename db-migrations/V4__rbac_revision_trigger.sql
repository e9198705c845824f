-- Every change to a tenant's RBAC rows bumps its rbac_revisions row in the same transaction, whoever
-- makes it: this node, another node, or an operator editing the tables by hand. Each node compares
-- that revision with the one its cached enforcer was loaded at before every evaluation, so a change
-- is enforced everywhere at the next request.
CREATE FUNCTION bump_rbac_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO rbac_revisions (tenant, revision) VALUES (NEW.tenant, 1)
            ON CONFLICT (tenant) DO UPDATE SET revision = rbac_revisions.revision + 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        -- An update only: when the tenant itself is being deleted its revision row goes with it,
        -- and an insert would break the foreign key.
        UPDATE rbac_revisions SET revision = revision + 1 WHERE tenant = OLD.tenant;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER rbac_policies_bump_revision
    AFTER INSERT OR UPDATE OR DELETE ON rbac_policies
    FOR EACH ROW EXECUTE FUNCTION bump_rbac_revision();

CREATE TRIGGER rbac_groupings_bump_revision
    AFTER INSERT OR UPDATE OR DELETE ON rbac_groupings
    FOR EACH ROW EXECUTE FUNCTION bump_rbac_revision();

-- Every node keeps the RBAC enforcers, trusted issuers and signing keys of each tenant in memory
-- (the token exchange reads them on every request). A change to any of those rows, whoever makes
-- it, notifies every node on commit with the tenant's name, and the nodes drop their copy of that
-- tenant. pg_notify folds identical notifications of one transaction into one.
CREATE FUNCTION notify_auth_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('controlplane_auth', OLD.tenant);
    ELSE
        PERFORM pg_notify('controlplane_auth', NEW.tenant);
        IF TG_OP = 'UPDATE' AND OLD.tenant IS DISTINCT FROM NEW.tenant THEN
            PERFORM pg_notify('controlplane_auth', OLD.tenant);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER rbac_policies_notify_auth AFTER INSERT OR UPDATE OR DELETE ON rbac_policies
    FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER rbac_groupings_notify_auth AFTER INSERT OR UPDATE OR DELETE ON rbac_groupings
    FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER idp_issuers_notify_auth AFTER INSERT OR UPDATE OR DELETE ON idp_issuers
    FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER signing_keys_notify_auth AFTER INSERT OR UPDATE OR DELETE ON signing_keys
    FOR EACH ROW EXECUTE FUNCTION notify_auth_change();

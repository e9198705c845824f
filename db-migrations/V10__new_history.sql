-- A new history of metadata versions, for a database that went back in time.
--
-- After PostgreSQL is restored from a backup (pg_restore, point-in-time recovery), or fails over to
-- a standby that had not received the last commits, its metadata is older than what brokers and
-- nodes have seen, and the versions above its head were already given to changes that are gone.
-- Writing on from that head would give the same numbers to other changes, and a broker resuming
-- its watch from one of them would apply the new changes on top of the lost ones without noticing.
--
-- controlplane_start_new_history moves the version counter `skip` versions ahead and drops the
-- change log, so that the oldest version a snapshot or a watch can start from is the new head:
-- every broker still at an older version is answered OUT_OF_RANGE and takes a new snapshot, and no
-- version it saw is ever given to another change. etcd's `snapshot restore --bump-revision
-- --mark-compacted` does the same. The default skip of 10^9 versions is more than any backup's
-- worth of lost writes (at 100 writes/s, four months); the 64-bit counter has room for 9 * 10^9
-- such skips.
--
-- An operator runs it once after a restore, before starting the nodes (docs/operations.md):
--     SELECT controlplane_start_new_history();
-- A leader runs it itself when it finds the database behind a version its node has read.
-- It returns the new head. It is recorded in audit_records (operation cluster.new_history).
CREATE FUNCTION controlplane_start_new_history(
    skip           bigint DEFAULT 1000000000,
    principal      text   DEFAULT session_user,
    principal_type text   DEFAULT 'operator',
    node           text   DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    restored bigint;
    head     bigint;
BEGIN
    IF skip IS NULL OR skip < 1 THEN
        RAISE EXCEPTION 'skip is the number of versions to leave unused after the restored head; it must be at least 1, not %', skip
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT metadata_version INTO restored FROM cluster_state WHERE id = 1 FOR UPDATE;
    IF restored > 9223372036854775806 - skip THEN
        RAISE EXCEPTION 'the metadata version % leaves no room for a skip of %', restored, skip
            USING ERRCODE = 'numeric_value_out_of_range';
    END IF;
    head := restored + skip;
    DELETE FROM metadata_updates;
    UPDATE cluster_state SET metadata_version = head, retained_from = head + 1 WHERE id = 1;
    INSERT INTO audit_records (event_type, operation, action, result, principal, principal_type,
                               metadata, node, version)
    VALUES ('cluster', 'cluster.new_history', 'new_history', 'success', principal, principal_type,
            jsonb_build_object('restored_version', restored, 'skipped', skip), node, head);
    -- Running nodes read the new bounds at once instead of at their next poll.
    PERFORM pg_notify('controlplane_metadata', head::text);
    RETURN head;
END
$$;

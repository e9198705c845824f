-- The identity of this database: one random value, made when the schema is first migrated.
--
-- Every node of a cluster must use the same database. A node whose SERVICE_CONTROLPLANE_DB_URL was
-- mistyped (another database on the same server, another cluster's database, a fresh empty one)
-- would otherwise run: as a follower it serves snapshots and watches of the wrong metadata, and as
-- the leader it acknowledges writes that the rest of the cluster never sees. Each node reads this
-- value at start and carries it in its cluster address, so that nodes compare databases in every
-- cluster view: only a node on the database a majority of the members use can be elected, and a
-- node outvoted that way stops with a message naming the setting (docs/operations.md).
--
-- It is data like any other: pg_dump and pg_restore, a physical standby and point-in-time
-- recovery all keep it, so a restored or failed-over database is still the cluster's. A copy made
-- for another cluster (a staging copy of production) should get a new value before its nodes
-- start:
--     UPDATE cluster_state SET database_id = gen_random_uuid();
ALTER TABLE cluster_state
    ADD COLUMN database_id uuid NOT NULL DEFAULT gen_random_uuid();

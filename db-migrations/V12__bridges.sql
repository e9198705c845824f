-- Bridges: the streams the data plane copies from one region to another (kind Bridge).
--
-- Cluster-wide like brokers: a bridge may carry streams of several tenants. Its streams are a JSON
-- array of {"tenant", "namespace", "stream"} objects; the service checks that each exists when the
-- bridge is written and refuses to delete a stream a bridge names, so no foreign key is needed (and
-- none could reach into the array). Rows are written only by the leader's write pipeline, like
-- every metadata table, each change with its versioned update in metadata_updates.
CREATE TABLE bridges (
    name               resource_name PRIMARY KEY,
    source_region      text        NOT NULL CHECK (source_region <> ''),
    target_region      text        NOT NULL CHECK (target_region <> '' AND target_region <> source_region),
    streams            jsonb       NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(streams) = 'array'),
    encryption_key_id  text        NOT NULL DEFAULT '',
    version            bigint      NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now()
);

-- The change log takes the new kind.
ALTER TABLE metadata_updates DROP CONSTRAINT metadata_updates_kind_check;
ALTER TABLE metadata_updates ADD CONSTRAINT metadata_updates_kind_check
    CHECK (kind IN ('Tenant', 'Namespace', 'Stream', 'ShardPlacement', 'Broker', 'Bridge'));

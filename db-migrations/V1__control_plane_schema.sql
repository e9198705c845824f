-- Control plane schema, version 1.
-- Apply with Flyway (flyway-maven-plugin or the Flyway CLI, location filesystem:db-migrations);
-- the service applies it itself only when SERVICE_CONTROLPLANE_DB_MIGRATE=migrate.
-- Names follow decisions.md: 1 to 63 characters of a-z 0-9 . _ - starting with a letter or digit.

CREATE DOMAIN resource_name AS text
    CHECK (VALUE ~ '^[a-z0-9][a-z0-9._-]{0,62}$');

-- One row. Every metadata write locks it: the version counter and the fencing term live together,
-- so versions are gapless, commit in version order, and a deposed leader cannot commit.
CREATE TABLE cluster_state (
    id                smallint    PRIMARY KEY CHECK (id = 1),
    metadata_version  bigint      NOT NULL CHECK (metadata_version >= 0),
    -- Oldest version still present in metadata_updates (or metadata_version + 1 when none are):
    -- a snapshot or watch needs every version after its own, so versions below retained_from - 1 are out of range.
    retained_from     bigint      NOT NULL CHECK (retained_from >= 1),
    leader_term       bigint      NOT NULL CHECK (leader_term >= 0),
    leader_node       text,
    leader_since      timestamptz
);
INSERT INTO cluster_state (id, metadata_version, retained_from, leader_term) VALUES (1, 0, 1, 0);

-- The change log (outbox). One row per MetadataUpdate. Watches and past snapshots are served from it.
CREATE TABLE metadata_updates (
    version       bigint      PRIMARY KEY CHECK (version >= 1),
    update_type   text        NOT NULL CHECK (update_type IN ('CREATE', 'UPDATE', 'DELETE')),
    kind          text        NOT NULL CHECK (kind IN ('Tenant', 'Namespace', 'Stream', 'ShardPlacement', 'Broker')),
    resource_key  text        NOT NULL,
    -- The resource after the change; for a DELETE, the resource as it was deleted.
    payload       jsonb       NOT NULL,
    -- The resource before the change (NULL for CREATE): lets a snapshot be rolled back to a past version.
    previous      jsonb,
    term          bigint      NOT NULL,
    committed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX metadata_updates_committed_at ON metadata_updates (committed_at);

CREATE TABLE tenants (
    name                    resource_name PRIMARY KEY,
    description             text        NOT NULL DEFAULT '',
    max_streams             bigint      CHECK (max_streams >= 0),
    max_publish_rate        bigint      CHECK (max_publish_rate >= 0),
    max_storage             text,
    max_storage_bytes       bigint      CHECK (max_storage_bytes >= 0),
    encryption_key_id       text,
    encryption_rotation     text,
    encryption_rotation_ms  bigint      CHECK (encryption_rotation_ms >= 0),
    -- Metadata version of the last change of this row.
    version                 bigint      NOT NULL,
    created_at              timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE namespaces (
    tenant            resource_name NOT NULL REFERENCES tenants (name),
    name              resource_name NOT NULL,
    description       text        NOT NULL DEFAULT '',
    max_streams       bigint      CHECK (max_streams >= 0),
    max_publish_rate  bigint      CHECK (max_publish_rate >= 0),
    version           bigint      NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, name)
);

CREATE TABLE streams (
    tenant              resource_name NOT NULL,
    namespace           resource_name NOT NULL,
    name                resource_name NOT NULL,
    shards              integer     NOT NULL CHECK (shards >= 1),
    retention_time      text,
    retention_ms        bigint      CHECK (retention_ms >= 0),
    retention_size      text,
    retention_bytes     bigint      CHECK (retention_bytes >= 0),
    durability          text        NOT NULL CHECK (durability IN ('durable', 'ephemeral')),
    replication_factor  integer     NOT NULL CHECK (replication_factor >= 1),
    ack_policy          text        NOT NULL CHECK (ack_policy IN ('quorum', 'leader_only')),
    -- 'deleting' streams were deleted (a DELETE update was published) and wait for purge_after.
    state               text        NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'deleting')),
    deleted_at          timestamptz,
    purge_after         timestamptz,
    version             bigint      NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, namespace, name),
    FOREIGN KEY (tenant, namespace) REFERENCES namespaces (tenant, name)
);
CREATE INDEX streams_purge_after ON streams (purge_after) WHERE state = 'deleting';

CREATE TABLE brokers (
    name               resource_name PRIMARY KEY,
    address            text        NOT NULL,
    region             text        NOT NULL DEFAULT '',
    availability_zone  text        NOT NULL DEFAULT '',
    max_shards         integer     CHECK (max_shards >= 0),
    max_connections    integer     CHECK (max_connections >= 0),
    status             text        NOT NULL CHECK (status IN ('active', 'draining', 'down')),
    version            bigint      NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now()
);

-- One row per stream: the placement of every shard, as [{"shard_id":0,"leader":"b1","replicas":["b1","b2"]}].
CREATE TABLE shard_placements (
    tenant      resource_name NOT NULL,
    namespace   resource_name NOT NULL,
    stream      resource_name NOT NULL,
    placements  jsonb       NOT NULL,
    version     bigint      NOT NULL,
    PRIMARY KEY (tenant, namespace, stream),
    FOREIGN KEY (tenant, namespace, stream) REFERENCES streams (tenant, namespace, name) ON DELETE CASCADE
);

-- Shard replicas and leaderships per broker, changed by the same transaction as shard_placements,
-- so placement decisions read one row per broker instead of every placement.
CREATE TABLE broker_load (
    broker    text        PRIMARY KEY,
    replicas  integer     NOT NULL DEFAULT 0 CHECK (replicas >= 0),
    leaders   integer     NOT NULL DEFAULT 0 CHECK (leaders >= 0)
);

-- Liveness and load as brokers report it. Not versioned metadata: heartbeats never touch the change log.
CREATE TABLE broker_health (
    broker             resource_name PRIMARY KEY REFERENCES brokers (name) ON DELETE CASCADE,
    last_heartbeat_at  timestamptz NOT NULL,
    healthy            boolean     NOT NULL DEFAULT true,
    message            text        NOT NULL DEFAULT '',
    uptime_seconds     bigint      NOT NULL DEFAULT 0,
    metrics            jsonb       NOT NULL DEFAULT '{}'::jsonb,
    shard_status       jsonb       NOT NULL DEFAULT '[]'::jsonb
);

-- Trust: the upstream identity providers each tenant accepts.
CREATE TABLE idp_issuers (
    tenant          resource_name NOT NULL REFERENCES tenants (name),
    issuer          text        NOT NULL,
    audiences       text[]      NOT NULL CHECK (cardinality(audiences) >= 1),
    discovery_url   text,
    jwks_url        text,
    subject_claim   text        NOT NULL DEFAULT 'sub',
    groups_claim    text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, issuer),
    CHECK (discovery_url IS NOT NULL OR jwks_url IS NOT NULL)
);

-- Per-tenant Ed25519 signing keys. The private key is encrypted with the configured key-encryption key.
CREATE TABLE signing_keys (
    tenant          resource_name NOT NULL REFERENCES tenants (name),
    kid             text        PRIMARY KEY,
    state           text        NOT NULL CHECK (state IN ('active', 'passive', 'retired')),
    public_x        text        NOT NULL,
    private_key     bytea       NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- Published before it signs: a verifier caching the JWKS already knows it.
    publish_at      timestamptz NOT NULL DEFAULT now(),
    activated_at    timestamptz,
    retire_after    timestamptz
);
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (tenant) WHERE state = 'active';

-- Casbin RBAC with the tenant as the domain: p = subject, object, action; g = principal, role.
CREATE TABLE rbac_policies (
    tenant      resource_name NOT NULL REFERENCES tenants (name),
    subject     text        NOT NULL,
    object      text        NOT NULL,
    action      text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, subject, object, action)
);

CREATE TABLE rbac_groupings (
    tenant      resource_name NOT NULL REFERENCES tenants (name),
    principal   text        NOT NULL,
    role        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, principal, role)
);

-- Bumped by every RBAC change of a tenant so each node can tell its cached policy is stale.
CREATE TABLE rbac_revisions (
    tenant    resource_name PRIMARY KEY REFERENCES tenants (name),
    revision  bigint      NOT NULL DEFAULT 0
);

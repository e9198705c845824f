-- The elected leader of a Raft cluster records, with its fencing term, the Raft term it won and
-- where clients reach it, so that followers can name the leader in their refusals
-- (Location header, x-leader trailer).
ALTER TABLE cluster_state
    -- Raft term of the election that produced leader_term: a claim from an older Raft term is refused,
    -- so a leader that was paused between winning and recording cannot fence off a newer one.
    ADD COLUMN leader_raft_term  bigint NOT NULL DEFAULT 0 CHECK (leader_raft_term >= 0),
    -- Advertised HTTP base URL (http://host:port) and gRPC address (host:port) of leader_node.
    ADD COLUMN leader_http       text,
    ADD COLUMN leader_grpc       text,
    -- The leader renews this every second while it leads. A claim from an older Raft term is still
    -- accepted once it is stale, so a cluster whose Raft data was wiped (terms restarted) recovers.
    ADD COLUMN leader_seen_at    timestamptz;

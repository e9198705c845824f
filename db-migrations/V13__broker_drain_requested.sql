-- The operator's drain of a broker, kept while the broker is down.
--
-- A broker's status is one of active, draining and down, and failure detection replaces draining
-- with down. The drain was lost with it: a broker drained for maintenance, stopped and started
-- again came back active and was given shards again before the operator undrained it.
-- drain_requested remembers the drain (SetBrokerStatus draining sets it, active clears it); a down
-- broker that reports again comes back draining when it is set. While a broker is alive the flag
-- and the status agree, which the CHECK holds: draining exactly when a drain is requested.
--
-- Runs on its own (psql -f, or ./mvnw flyway:migrate): brokers draining now keep their drain.
ALTER TABLE brokers
    ADD COLUMN drain_requested boolean NOT NULL DEFAULT false;

UPDATE brokers SET drain_requested = true WHERE status = 'draining';

ALTER TABLE brokers
    ADD CONSTRAINT brokers_drain_requested_status
        CHECK (status = 'down' OR drain_requested = (status = 'draining'));

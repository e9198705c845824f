-- A broker's labels: the RegisterBroker metadata entries other than region and availability_zone,
-- as a JSON object of strings (bounds in docs/api.md, enforced by the service).
ALTER TABLE brokers
    ADD COLUMN labels jsonb NOT NULL DEFAULT '{}'::jsonb
        CHECK (jsonb_typeof(labels) = 'object');

-- broker_load becomes a view over shard_placements.
--
-- The table kept each broker's replica and leadership counts in step with every placement change,
-- in the same transaction. The leader derives the same counts from the placements it loads at start
-- and keeps them in memory, so nothing read the table: it cost a statement per broker touched in
-- every batch that placed shards (48 for a stream of 16 shards at replication factor 3) and gave
-- nothing back. The view answers the same question for a DBA or an operator, from the placements
-- themselves, so it can never disagree with them.
DROP TABLE broker_load;

CREATE VIEW broker_load AS
SELECT replica.broker,
       count(*)::integer                                               AS replicas,
       count(*) FILTER (WHERE replica.broker = shard->>'leader')::integer AS leaders
  FROM shard_placements p,
       jsonb_array_elements(p.placements) AS shard,
       jsonb_array_elements_text(shard->'replicas') AS replica(broker)
 GROUP BY replica.broker;

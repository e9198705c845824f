package dev.controlplane.broker;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.audit.AuditEntry;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.VersionMatch;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.BrokerLabels;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Text;
import dev.controlplane.tx.Tx;
import dev.controlplane.write.WriteContext;
import dev.controlplane.write.WritePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Registration and heartbeats, both writes of the pipeline (so a deposed leader records neither). A
 * registration creates or updates the Broker resource (a versioned change only when something
 * differs); a heartbeat only records liveness in {@code broker_health}, except that a broker marked
 * down comes back, which is versioned: active, or draining if the operator drained it (see {@link
 * Broker#back}).
 */
@ApplicationScoped
public class BrokerRegistry {

  private static final String HEARTBEAT =
      "INSERT INTO broker_health (broker, last_heartbeat_at, healthy, message, uptime_seconds,"
          + " metrics, shard_status) VALUES (?, clock_timestamp(), ?, ?, ?, cast(? AS jsonb),"
          + " cast(? AS jsonb)) ON CONFLICT (broker) DO UPDATE SET last_heartbeat_at ="
          + " excluded.last_heartbeat_at, healthy = excluded.healthy, message = excluded.message,"
          + " uptime_seconds = excluded.uptime_seconds, metrics = CASE WHEN ? THEN"
          + " excluded.metrics ELSE broker_health.metrics END, shard_status = CASE WHEN ? THEN"
          + " excluded.shard_status ELSE broker_health.shard_status END";

  @Inject WritePipeline pipeline;
  @Inject ResourceCodec codec;

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  /** The id a broker configured as {@code auto} resolves to its pod name before it registers. */
  public static final String AUTO_ID = "auto";

  /** RegisterBroker metadata keys that fill Broker fields; every other entry is a label. */
  private static final java.util.Set<String> FIELD_KEYS =
      java.util.Set.of("region", "availability_zone");

  /** The result of a registration or heartbeat: the broker as stored and the metadata version. */
  public record Registered(Broker broker, long metadataVersion) {}

  public Registered register(
      String brokerId,
      String address,
      Integer maxShards,
      Integer maxConnections,
      Map<String, String> metadata) {
    requireResolvedId(brokerId);
    Broker requested = validated(brokerId, address, maxShards, maxConnections, metadata);
    return pipeline.execute(
        write -> {
          Optional<Broker> current = write.image().broker(brokerId);
          // The operator's drain outlives a restart, and a down broker that registers is back.
          Broker.Status status = current.map(c -> c.back().status()).orElse(Broker.Status.ACTIVE);
          Broker wanted = requested.withStatus(status);
          Broker stored =
              current.isPresent() && current.get().withVersion(0).equals(wanted)
                  ? current.get()
                  : write.put(wanted, current.orElse(null));
          if (current.isPresent() && !current.get().isLive()) {
            ShardLeadership.replaceDownLeaders(write);
          }
          recordHeartbeat(write, brokerId, null);
          write.audit(
              AuditEntry.of("broker", "broker.register", "register", null)
                  .on("broker:" + brokerId)
                  .with("address", wanted.address())
                  .with("status", wanted.status().wire())
                  .with("changed", stored != current.orElse(null)));
          return new Registered(stored, write.version());
        });
  }

  /**
   * Removes a broker that is gone for good (a pod replaced under another name, a host retired): a
   * versioned DELETE, with its health row. Only a broker marked down that holds no shard replica
   * can go: a live one would register again, and a placement must never name a broker that does not
   * exist. (A deleted stream's placement is deleted with it; a restore places it anew.)
   */
  public Broker remove(String brokerId, VersionMatch match, WriteMode mode) {
    return pipeline.execute(
        write -> {
          Broker current = existing(write, brokerId);
          match.check(Optional.of(current));
          if (current.status() != Broker.Status.DOWN) {
            throw new ControlPlaneException(
                ErrorCode.FAILED_PRECONDITION,
                "broker "
                    + brokerId
                    + " is "
                    + current.status().wire()
                    + "; only a broker marked down can be removed: stop it and wait for the"
                    + " failure detector");
          }
          int replicas = write.state().load(brokerId).replicas();
          if (replicas > 0) {
            throw new ControlPlaneException(
                ErrorCode.FAILED_PRECONDITION,
                "broker "
                    + brokerId
                    + " still holds "
                    + replicas
                    + " shard replica(s); move them with RebalanceShards first");
          }
          write.audit(
              AuditEntry.of("broker", "broker.remove", "remove", null)
                  .on("broker:" + brokerId)
                  .with("address", current.address()));
          return write.delete(current);
        },
        mode);
  }

  private static Broker existing(WriteContext write, String brokerId) {
    return write
        .image()
        .broker(brokerId)
        .orElseThrow(
            () -> ControlPlaneException.notFound("broker " + brokerId + " does not exist"));
  }

  /**
   * Refuses the literal {@code auto}: the spec makes it a broker-side placeholder for the pod name,
   * so a broker that sends it has not resolved its id, and storing it would merge every such broker
   * into one.
   */
  public static void requireResolvedId(String brokerId) {
    if (AUTO_ID.equals(brokerId)) {
      throw ControlPlaneException.validation(
          "broker_id",
          "must not be \"auto\": auto means \"use the pod name\" and the broker resolves it"
              + " before registering (RegisterBroker, docs/api.md)");
    }
  }

  public Registered reportHealth(HealthReport report) {
    requireResolvedId(report.brokerId());
    requireStorable(report);
    return pipeline.execute(
        write -> {
          Broker current =
              write
                  .image()
                  .broker(report.brokerId())
                  .orElseThrow(
                      () ->
                          ControlPlaneException.notFound(
                              "broker "
                                  + report.brokerId()
                                  + " is not registered; register it first"));
          recordHeartbeat(write, report.brokerId(), report);
          // A heartbeat is recorded only when it brings a broker back (versioned changes: the
          // broker, and the placements whose leader was down and that it or another live replica
          // now leads).
          write.routine();
          if (current.isLive()) {
            return new Registered(current, write.version());
          }
          Broker stored = write.put(current.back(), current);
          ShardLeadership.replaceDownLeaders(write);
          return new Registered(stored, write.version());
        });
  }

  /** The free-text bound of every document's text (docs/api.md 1.3), for the health message too. */
  private static final int MAX_MESSAGE = 1024;

  /** The report's text is stored as sent, so it must be text the database can hold unchanged. */
  private static void requireStorable(HealthReport report) {
    List<ControlPlaneException.FieldError> errors = new ArrayList<>();
    if (report.message() != null && !Text.isLines(report.message())) {
      errors.add(
          new ControlPlaneException.FieldError("status.message", "must be " + Text.LINES_RULE));
    } else if (report.message() != null && report.message().length() > MAX_MESSAGE) {
      errors.add(
          new ControlPlaneException.FieldError(
              "status.message", "must be at most " + MAX_MESSAGE + " characters"));
    }
    for (int i = 0; i < report.shards().size(); i++) {
      HealthReport.ShardStatus shard = report.shards().get(i);
      String at = "shard_status[" + i + "].";
      requireLine(errors, at + "tenant_id", shard.tenant());
      requireLine(errors, at + "namespace", shard.namespace());
      requireLine(errors, at + "stream", shard.stream());
    }
    if (!errors.isEmpty()) {
      throw ControlPlaneException.validation(errors);
    }
  }

  private static void requireLine(
      List<ControlPlaneException.FieldError> errors, String field, String value) {
    if (!Text.isLine(value)) {
      errors.add(new ControlPlaneException.FieldError(field, "must be " + Text.LINE_RULE));
    }
  }

  /** Marks a broker down if it still is not heartbeating; false when it recovered meanwhile. */
  public boolean markDownIfSilent(String brokerId, Duration silence, Instant graceStart) {
    return pipeline.execute(
        write -> {
          Optional<Broker> current =
              write.image().broker(brokerId).filter(b -> b.status() != Broker.Status.DOWN);
          if (current.isEmpty() || !silentSince(write, brokerId, silence, graceStart)) {
            return false;
          }
          write.put(current.get().markedDown(), current.get());
          ShardLeadership.replaceDownLeaders(write);
          return true;
        });
  }

  /**
   * An operator drains a broker (no new shards; rebalancing empties it) or ends its drain; only if
   * {@code match} holds. A down broker stays down and takes the drain (or its end) with it for when
   * it is back: maintenance drains, stops the broker, and may only notice afterwards that it forgot
   * to drain first. A dry run answers the same and commits nothing.
   */
  public Registered setStatus(
      String brokerId, Broker.Status status, VersionMatch match, WriteMode mode) {
    if (status == Broker.Status.DOWN) {
      throw ControlPlaneException.validation(
          "status", "must be draining or active; down is set by failure detection");
    }
    return pipeline.execute(
        write -> {
          Broker current = existing(write, brokerId);
          match.check(Optional.of(current));
          Broker wanted =
              status == Broker.Status.DRAINING ? current.drained() : current.undrained();
          Broker stored = wanted.equals(current) ? current : write.put(wanted, current);
          return new Registered(stored, write.version());
        },
        mode);
  }

  /** The database's clock, which stamps heartbeats and judges silences. */
  @Tx
  public Instant databaseNow() {
    long micros =
        ((Number)
                em.createNativeQuery(
                        "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")
                    .getSingleResult())
            .longValue();
    return Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS);
  }

  /** Brokers not marked down whose last heartbeat (or the grace start, if later) is too old. */
  @Tx
  @SuppressWarnings("unchecked")
  public List<String> silentBrokers(Duration silence, Instant graceStart) {
    return em.createNativeQuery(
            "SELECT b.name FROM brokers b JOIN broker_health h ON h.broker = b.name"
                + " WHERE b.status <> 'down' AND greatest(h.last_heartbeat_at, ?1) < now() - make_interval(secs => ?2)")
        .setParameter(1, Timestamp.from(graceStart))
        .setParameter(2, silence.toMillis() / 1000.0)
        .getResultList();
  }

  private static boolean silentSince(
      WriteContext write, String brokerId, Duration silence, Instant graceStart) {
    return write.query(
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT 1 FROM broker_health WHERE broker = ?"
                      + " AND greatest(last_heartbeat_at, ?) < now() - make_interval(secs => ?)")) {
            ps.setString(1, brokerId);
            ps.setTimestamp(2, Timestamp.from(graceStart));
            ps.setDouble(3, silence.toMillis() / 1000.0);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next();
            }
          }
        });
  }

  private static void recordHeartbeat(WriteContext write, String brokerId, HealthReport report) {
    boolean full = report != null;
    write.sql(
        HEARTBEAT,
        brokerId,
        report == null || report.healthy(),
        full ? report.message() : "registered",
        full ? report.uptimeSeconds() : 0L,
        full ? report.metricsJson() : "{}",
        full ? report.shardStatusJson() : "[]",
        full,
        full);
  }

  /**
   * The metadata entries other than region and zone, checked against {@link BrokerLabels} with the
   * request's field names ({@code metadata[key]}).
   */
  private static Map<String, String> labelsOf(Map<String, String> metadata) {
    Map<String, String> labels = new java.util.TreeMap<>(metadata);
    labels.keySet().removeAll(FIELD_KEYS);
    List<ControlPlaneException.FieldError> errors = new java.util.ArrayList<>();
    BrokerLabels.validate(
        labels,
        (key, message) ->
            errors.add(
                new ControlPlaneException.FieldError(
                    key.isEmpty() ? "metadata" : "metadata[" + key + "]", message)));
    if (!errors.isEmpty()) {
      throw ControlPlaneException.validation(errors);
    }
    return labels;
  }

  /** Runs a registration through the same validation as a Broker document. */
  private Broker validated(
      String brokerId,
      String address,
      Integer maxShards,
      Integer maxConnections,
      Map<String, String> metadata) {
    ObjectNode doc = codec.newObject();
    doc.put("apiVersion", ResourceCodec.API_VERSION);
    doc.put("kind", ResourceKind.BROKER.kindName());
    ObjectNode spec = doc.putObject("spec");
    spec.put("address", address);
    spec.put("region", metadata.getOrDefault("region", ""));
    spec.put("availability_zone", metadata.getOrDefault("availability_zone", ""));
    ObjectNode labels = spec.putObject("labels");
    labelsOf(metadata).forEach(labels::put);
    ObjectNode capacity = spec.putObject("capacity");
    if (maxShards != null) {
      capacity.put("max_shards", maxShards);
    }
    if (maxConnections != null) {
      capacity.put("max_connections", maxConnections);
    }
    try {
      return (Broker)
          codec.read(doc, ResourceKind.BROKER, Map.of("name", brokerId == null ? "" : brokerId));
    } catch (ControlPlaneException e) {
      if (e.code() != ErrorCode.VALIDATION_FAILED || e.fieldErrors().isEmpty()) {
        throw e;
      }
      throw ControlPlaneException.validation(
          e.fieldErrors().stream()
              .map(f -> new ControlPlaneException.FieldError(requestField(f.field()), f.message()))
              .toList());
    }
  }

  /**
   * The registration's name for a field of the Broker document it was checked as: a broker that
   * sent {@code broker_id} must be told about {@code broker_id}, not {@code metadata.name}.
   */
  static String requestField(String documentField) {
    if (documentField == null) {
      return null;
    }
    return switch (documentField) {
      case "metadata.name" -> "broker_id";
      case "spec.region" -> "metadata[region]";
      case "spec.availability_zone" -> "metadata[availability_zone]";
      default -> documentField.startsWith("spec.") ? documentField.substring(5) : documentField;
    };
  }
}

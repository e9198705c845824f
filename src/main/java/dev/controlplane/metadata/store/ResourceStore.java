package dev.controlplane.metadata.store;

import dev.controlplane.metadata.model.Bridge;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.model.Tenant;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Optional;

/**
 * Reads of the current state, one table per kind, for the HTTP API's gets and pages. Rows are
 * written only by the write pipeline ({@link dev.controlplane.write.WritePipeline}), through each
 * kind's {@link dev.controlplane.metadata.kind.Kind}, so a row always equals the payload of the
 * latest update of its resource. Every method joins the caller's transaction or runs in its own.
 */
@ApplicationScoped
@dev.controlplane.tx.Tx
public class ResourceStore {

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  public Optional<Tenant> tenant(String name) {
    return Optional.ofNullable(em.find(TenantEntity.class, name)).map(TenantEntity::toResource);
  }

  public Optional<Namespace> namespace(String tenant, String name) {
    return Optional.ofNullable(
            em.find(NamespaceEntity.class, new NamespaceEntity.Key(tenant, name)))
        .map(NamespaceEntity::toResource);
  }

  /** The stream in any state, deleting included. */
  public Optional<Stream> stream(StreamRef ref) {
    return Optional.ofNullable(em.find(StreamEntity.class, streamKey(ref)))
        .map(StreamEntity::toResource);
  }

  public Optional<ShardPlacement> placement(StreamRef ref) {
    return Optional.ofNullable(em.find(PlacementEntity.class, placementKey(ref)))
        .map(ResourceStore::toPlacement);
  }

  public Optional<Broker> broker(String name) {
    return Optional.ofNullable(em.find(BrokerEntity.class, name)).map(BrokerEntity::toResource);
  }

  public List<Tenant> tenants(String after, int limit) {
    return em.createQuery("from TenantEntity where name > :after order by name", TenantEntity.class)
        .setParameter("after", after)
        .setMaxResults(limit)
        .getResultStream()
        .map(TenantEntity::toResource)
        .toList();
  }

  public List<Namespace> namespaces(String tenant, String after, int limit) {
    return em.createQuery(
            "from NamespaceEntity where tenant = :t and name > :after order by name",
            NamespaceEntity.class)
        .setParameter("t", tenant)
        .setParameter("after", after)
        .setMaxResults(limit)
        .getResultStream()
        .map(NamespaceEntity::toResource)
        .toList();
  }

  public List<Stream> streams(String tenant, String namespace, String after, int limit) {
    return em.createQuery(
            "from StreamEntity where tenant = :t and namespace = :n and state = 'active' and name > :after order by name",
            StreamEntity.class)
        .setParameter("t", tenant)
        .setParameter("n", namespace)
        .setParameter("after", after)
        .setMaxResults(limit)
        .getResultStream()
        .map(StreamEntity::toResource)
        .toList();
  }

  /**
   * Active streams of a namespace whose name contains {@code filter}, after {@code after} by name.
   */
  public List<Stream> streamsContaining(
      String tenant, String namespace, String filter, String after, int limit) {
    return em.createQuery(
            "from StreamEntity where tenant = :t and namespace = :n and state = 'active' and name > :after"
                + " and locate(:filter, name) > 0 order by name",
            StreamEntity.class)
        .setParameter("t", tenant)
        .setParameter("n", namespace)
        .setParameter("after", after)
        .setParameter("filter", filter)
        .setMaxResults(limit)
        .getResultStream()
        .map(StreamEntity::toResource)
        .toList();
  }

  public List<ShardPlacement> placements(String tenant, String namespace, String after, int limit) {
    return em.createQuery(
            "from PlacementEntity where tenant = :t and namespace = :n and stream > :after order by stream",
            PlacementEntity.class)
        .setParameter("t", tenant)
        .setParameter("n", namespace)
        .setParameter("after", after)
        .setMaxResults(limit)
        .getResultStream()
        .map(ResourceStore::toPlacement)
        .toList();
  }

  public List<Broker> brokers(String after, int limit) {
    return em.createQuery("from BrokerEntity where name > :after order by name", BrokerEntity.class)
        .setParameter("after", after)
        .setMaxResults(limit)
        .getResultStream()
        .map(BrokerEntity::toResource)
        .toList();
  }

  public Optional<Bridge> bridge(String name) {
    return Optional.ofNullable(em.find(BridgeEntity.class, name)).map(BridgeEntity::toResource);
  }

  public List<Bridge> bridges(String after, int limit) {
    return em.createQuery("from BridgeEntity where name > :after order by name", BridgeEntity.class)
        .setParameter("after", after)
        .setMaxResults(limit)
        .getResultStream()
        .map(BridgeEntity::toResource)
        .toList();
  }

  private static StreamEntity.Key streamKey(StreamRef ref) {
    return new StreamEntity.Key(ref.tenant(), ref.namespace(), ref.stream());
  }

  private static PlacementEntity.Key placementKey(StreamRef ref) {
    return new PlacementEntity.Key(ref.tenant(), ref.namespace(), ref.stream());
  }

  private static ShardPlacement toPlacement(PlacementEntity e) {
    return new ShardPlacement(
        e.tenant,
        e.namespace,
        e.stream,
        dev.controlplane.metadata.kind.Kinds.shards(e.placements),
        e.version);
  }
}

package dev.controlplane.metadata.store;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Resource;
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
 * The current state of every resource, one table per kind. Writes come only from the change log
 * ({@link dev.controlplane.metadata.log.VersionedWrite}), so a row always equals the payload of the
 * latest update of its resource. Every method joins the caller's transaction or runs in its own, so
 * reads from HTTP handlers never use a connection outside a transaction.
 */
@ApplicationScoped
@dev.controlplane.tx.Tx
public class ResourceStore {

  @PersistenceContext(unitName = "controlplane")
  EntityManager em;

  @jakarta.inject.Inject BrokerLoadTable brokerLoad;

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

  /** Inserts or replaces the row of this resource. */
  public void save(Resource resource) {
    if (resource instanceof Tenant t) {
      upsert(TenantEntity.class, t.name(), TenantEntity::new, e -> e.apply(t));
    } else if (resource instanceof Namespace n) {
      upsert(
          NamespaceEntity.class,
          new NamespaceEntity.Key(n.tenant(), n.name()),
          NamespaceEntity::new,
          e -> e.apply(n));
    } else if (resource instanceof Stream s) {
      upsert(StreamEntity.class, streamKey(s.ref()), StreamEntity::new, e -> e.apply(s));
    } else if (resource instanceof ShardPlacement p) {
      PlacementEntity existing = em.find(PlacementEntity.class, placementKey(p.ref()));
      brokerLoad.change(
          existing == null ? List.of() : PlacementJson.read(existing.placements), p.placements());
      upsert(PlacementEntity.class, placementKey(p.ref()), PlacementEntity::new, e -> e.apply(p));
    } else {
      Broker b = (Broker) resource;
      upsert(BrokerEntity.class, b.name(), BrokerEntity::new, e -> e.apply(b));
    }
  }

  /** Removes the row of this resource. */
  public void remove(Resource resource) {
    Object entity = em.find(entityType(resource), primaryKey(resource));
    if (entity instanceof PlacementEntity placement) {
      brokerLoad.change(PlacementJson.read(placement.placements), List.of());
    }
    if (entity != null) {
      em.remove(entity);
      em.flush();
    }
  }

  private static Class<?> entityType(Resource resource) {
    return switch (resource.kind()) {
      case TENANT -> TenantEntity.class;
      case NAMESPACE -> NamespaceEntity.class;
      case STREAM -> StreamEntity.class;
      case SHARD_PLACEMENT -> PlacementEntity.class;
      case BROKER -> BrokerEntity.class;
    };
  }

  private static Object primaryKey(Resource resource) {
    String[] p = resource.key().split("/");
    return switch (resource.kind()) {
      case TENANT, BROKER -> p[0];
      case NAMESPACE -> new NamespaceEntity.Key(p[0], p[1]);
      case STREAM -> new StreamEntity.Key(p[0], p[1], p[2]);
      case SHARD_PLACEMENT -> new PlacementEntity.Key(p[0], p[1], p[2]);
    };
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

  public List<Broker> brokersWithStatus(Broker.Status status) {
    return em.createQuery("from BrokerEntity where status = :s order by name", BrokerEntity.class)
        .setParameter("s", status.wire())
        .getResultStream()
        .map(BrokerEntity::toResource)
        .toList();
  }

  /** Streams deleted before {@code cutoff} whose grace period is over. */
  public List<Stream> streamsToPurge(java.time.Instant cutoff, int limit) {
    return em.createQuery(
            "from StreamEntity where state = 'deleting' and purgeAfter < :cutoff order by purgeAfter",
            StreamEntity.class)
        .setParameter("cutoff", cutoff)
        .setMaxResults(limit)
        .getResultStream()
        .map(StreamEntity::toResource)
        .toList();
  }

  /** Marks when a deleted stream may be purged (not versioned: brokers already saw the DELETE). */
  public void schedulePurge(
      StreamRef ref, java.time.Instant deletedAt, java.time.Instant purgeAfter) {
    // A restore clears both (nulls), so the stream is not purged after all.
    StreamEntity e = em.find(StreamEntity.class, streamKey(ref));
    e.deletedAt = deletedAt;
    e.purgeAfter = purgeAfter;
  }

  /** Removes a purged stream's row for good; its DELETE was published when it was deleted. */
  public void purge(StreamRef ref) {
    StreamEntity e = em.find(StreamEntity.class, streamKey(ref));
    if (e != null) {
      em.remove(e);
    }
  }

  /** Every resource of the current state, for a snapshot. Deleting streams are not part of it. */
  public List<Resource> all() {
    var out = new java.util.ArrayList<Resource>();
    em.createQuery("from TenantEntity", TenantEntity.class)
        .getResultStream()
        .map(TenantEntity::toResource)
        .forEach(out::add);
    em.createQuery("from NamespaceEntity", NamespaceEntity.class)
        .getResultStream()
        .map(NamespaceEntity::toResource)
        .forEach(out::add);
    em.createQuery("from StreamEntity where state = 'active'", StreamEntity.class)
        .getResultStream()
        .map(StreamEntity::toResource)
        .forEach(out::add);
    em.createQuery("from PlacementEntity", PlacementEntity.class)
        .getResultStream()
        .map(ResourceStore::toPlacement)
        .forEach(out::add);
    em.createQuery("from BrokerEntity", BrokerEntity.class)
        .getResultStream()
        .map(BrokerEntity::toResource)
        .forEach(out::add);
    return out;
  }

  public long countNamespaces(String tenant) {
    return em.createQuery("select count(n) from NamespaceEntity n where n.tenant = :t", Long.class)
        .setParameter("t", tenant)
        .getSingleResult();
  }

  /** Active streams of a namespace, or of the whole tenant when {@code namespace} is null. */
  public long countActiveStreams(String tenant, String namespace) {
    String where = namespace == null ? "" : " and s.namespace = :n";
    var query =
        em.createQuery(
                "select count(s) from StreamEntity s where s.tenant = :t and s.state = 'active'"
                    + where,
                Long.class)
            .setParameter("t", tenant);
    if (namespace != null) {
      query.setParameter("n", namespace);
    }
    return query.getSingleResult();
  }

  public List<Broker> allBrokers() {
    return brokers("", Integer.MAX_VALUE);
  }

  public List<ShardPlacement> allPlacements() {
    return em.createQuery("from PlacementEntity", PlacementEntity.class)
        .getResultStream()
        .map(ResourceStore::toPlacement)
        .toList();
  }

  /** Placements in which {@code broker} leads at least one shard. */
  public List<ShardPlacement> placementsLedBy(String broker) {
    @SuppressWarnings("unchecked")
    List<Object[]> keys =
        em.createNativeQuery(
                "SELECT tenant, namespace, stream FROM shard_placements"
                    + " WHERE placements @> jsonb_build_array(jsonb_build_object('leader', cast(?1 AS text)))")
            .setParameter(1, broker)
            .getResultList();
    return keys.stream()
        .map(
            k ->
                placement(new StreamRef((String) k[0], (String) k[1], (String) k[2])).orElseThrow())
        .toList();
  }

  public long countStreams(String tenant, String namespace) {
    return em.createQuery(
            "select count(s) from StreamEntity s where s.tenant = :t and s.namespace = :n",
            Long.class)
        .setParameter("t", tenant)
        .setParameter("n", namespace)
        .getSingleResult();
  }

  private <E, K> void upsert(
      Class<E> type,
      K key,
      java.util.function.Supplier<E> create,
      java.util.function.Consumer<E> apply) {
    E existing = em.find(type, key);
    if (existing != null) {
      apply.accept(existing);
      return;
    }
    E created = create.get();
    apply.accept(created);
    em.persist(created);
  }

  private static StreamEntity.Key streamKey(StreamRef ref) {
    return new StreamEntity.Key(ref.tenant(), ref.namespace(), ref.stream());
  }

  private static PlacementEntity.Key placementKey(StreamRef ref) {
    return new PlacementEntity.Key(ref.tenant(), ref.namespace(), ref.stream());
  }

  private static ShardPlacement toPlacement(PlacementEntity e) {
    return new ShardPlacement(
        e.tenant, e.namespace, e.stream, PlacementJson.read(e.placements), e.version);
  }
}

package dev.controlplane.write;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.pcollections.TreePMap;

/**
 * The leader's write model: the metadata image plus what only writes need — deleted streams waiting
 * for their purge, and each broker's shard counts. Immutable and structure-sharing like the image,
 * so keeping the committed state while a batch builds the next one costs nothing, and discarding a
 * refused operation or a failed batch is dropping a reference.
 *
 * @param term the fencing term the state was loaded for; a new term reloads it
 */
public record WriteState(
    long term,
    MetadataImage image,
    TreePMap<String, DeletedStream> deleting,
    TreePMap<String, BrokerCounts> loads) {

  /** A stream deleted but not purged: its name stays taken until {@code purgeAfter}. */
  public record DeletedStream(Stream stream, Instant purgeAfter) {}

  public long version() {
    return image.version();
  }

  /** The stream in any state: active from the image, or deleted and waiting for its purge. */
  public Optional<Stream> streamInAnyState(StreamRef ref) {
    Optional<Stream> active = image.stream(ref);
    if (active.isPresent()) {
      return active;
    }
    return Optional.ofNullable(deleting.get(ref.key())).map(DeletedStream::stream);
  }

  public long countNamespaces(String tenant) {
    return image.under(ResourceKind.NAMESPACE, tenant).size();
  }

  /** Active streams of a namespace, or of the whole tenant when {@code namespace} is null. */
  public long countActiveStreams(String tenant, String namespace) {
    String prefix = namespace == null ? tenant : tenant + "/" + namespace;
    return image.under(ResourceKind.STREAM, prefix).size();
  }

  /** Streams of a namespace in any state, deleted ones awaiting purge included. */
  public long countStreams(String tenant, String namespace) {
    String prefix = tenant + "/" + namespace + "/";
    return countActiveStreams(tenant, namespace)
        + deleting.subMap(prefix, prefix + "\uffff").size();
  }

  public BrokerCounts load(String broker) {
    return loads.getOrDefault(broker, BrokerCounts.NONE);
  }

  /** The active brokers, in name order. */
  public List<Broker> activeBrokers() {
    return image.brokers().stream().filter(b -> b.status() == Broker.Status.ACTIVE).toList();
  }

  WriteState withImage(MetadataImage next) {
    return new WriteState(term, next, deleting, loads);
  }

  WriteState withDeleting(TreePMap<String, DeletedStream> next) {
    return new WriteState(term, image, next, loads);
  }

  /** The counts after a placement changed from {@code before} to {@code after}. */
  WriteState withLoadChange(List<ShardAssignment> before, List<ShardAssignment> after) {
    TreePMap<String, BrokerCounts> next = loads;
    next = count(next, before, -1);
    next = count(next, after, 1);
    return new WriteState(term, image, deleting, next);
  }

  private static TreePMap<String, BrokerCounts> count(
      TreePMap<String, BrokerCounts> loads, List<ShardAssignment> shards, int sign) {
    for (ShardAssignment a : shards) {
      for (String replica : a.replicas()) {
        loads = loads.plus(replica, loads.getOrDefault(replica, BrokerCounts.NONE).plus(sign, 0));
      }
      String leader = a.leader();
      loads = loads.plus(leader, loads.getOrDefault(leader, BrokerCounts.NONE).plus(0, sign));
    }
    return loads;
  }
}

package dev.controlplane.cluster;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jgroups.Address;
import org.jgroups.View;

/**
 * Which database each member of a cluster view uses, by the {@code cluster_state.database_id} its
 * address carries (read at start, migration V11). A node whose {@code SERVICE_CONTROLPLANE_DB_URL}
 * names another database than the others' would serve, and as leader acknowledge, metadata the rest
 * of the cluster never sees; the rule here keeps it from leading:
 *
 * <ul>
 *   <li>the cluster's database is the one a majority of the configured members use: at most one
 *       database can have that;
 *   <li>only members on it can be elected; while no database has a majority in the view, nobody
 *       can;
 *   <li>a member on any other database is outvoted, and stops ({@link RaftLeadership}).
 * </ul>
 *
 * A member whose address carries no identity (a build without it) counts for no database. Builds
 * without it cannot run on a schema with it (docs/operations.md, Upgrades), so that happens only
 * when something else joins the JGroups cluster.
 */
final class DatabaseCensus {

  /** The address entry holding the database id. */
  static final String KEY = "cp-database";

  private final Map<UUID, List<Address>> byDatabase;
  private final int majority;

  private DatabaseCensus(Map<UUID, List<Address>> byDatabase, int majority) {
    this.byDatabase = byDatabase;
    this.majority = majority;
  }

  /** Counts the members of {@code view}; {@code majority} is that of the configured members. */
  static DatabaseCensus of(View view, int majority) {
    Map<UUID, List<Address>> byDatabase = new LinkedHashMap<>();
    for (Address member : view.getMembers()) {
      databaseOf(member)
          .ifPresent(id -> byDatabase.computeIfAbsent(id, k -> new ArrayList<>()).add(member));
    }
    return new DatabaseCensus(byDatabase, majority);
  }

  /** The database a majority of the configured members in the view use, if any. */
  Optional<UUID> clusterDatabase() {
    return byDatabase.entrySet().stream()
        .filter(e -> e.getValue().size() >= majority)
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /**
   * The members that may be elected: those on the cluster's database (none while there is none).
   */
  Set<Address> electable() {
    return clusterDatabase().map(id -> Set.copyOf(byDatabase.get(id))).orElse(Set.of());
  }

  /** The members on another database than {@code own}, by name, sorted. */
  List<String> onOtherDatabase(UUID own) {
    List<String> names = new ArrayList<>();
    byDatabase.forEach(
        (id, members) -> {
          if (!id.equals(own)) {
            members.forEach(m -> names.add(MemberEntries.name(m)));
          }
        });
    return names.stream().sorted().toList();
  }

  /** The members on database {@code id}, by name, sorted. */
  List<String> on(UUID id) {
    return byDatabase.getOrDefault(id, List.of()).stream()
        .map(MemberEntries::name)
        .sorted()
        .toList();
  }

  /** The cluster's database when it is not {@code own}: this node is outvoted. */
  Optional<UUID> outvoting(UUID own) {
    return clusterDatabase().filter(id -> !id.equals(own));
  }

  /** The address entry for database {@code id}. */
  static byte[] entry(UUID id) {
    return ByteBuffer.allocate(16)
        .putLong(id.getMostSignificantBits())
        .putLong(id.getLeastSignificantBits())
        .array();
  }

  private static Optional<UUID> databaseOf(Address member) {
    byte[] value = MemberEntries.get(member, KEY);
    if (value == null || value.length != 16) {
      return Optional.empty();
    }
    ByteBuffer b = ByteBuffer.wrap(value);
    return Optional.of(new UUID(b.getLong(), b.getLong()));
  }
}

package dev.controlplane.metadata.model;

/**
 * Identity of a resource across kinds. Ordered by kind, then key, so snapshots are deterministic.
 */
public record ResourceId(ResourceKind kind, String key) implements Comparable<ResourceId> {

  @Override
  public int compareTo(ResourceId other) {
    int byKind = kind.compareTo(other.kind);
    return byKind != 0 ? byKind : key.compareTo(other.key);
  }

  @Override
  public String toString() {
    return kind.kindName() + " " + key;
  }
}

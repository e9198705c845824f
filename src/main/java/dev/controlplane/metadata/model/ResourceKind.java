package dev.controlplane.metadata.model;

import java.util.Arrays;
import java.util.Optional;

/** The six versioned kinds. {@link #kindName()} is the {@code kind} of the declarative envelope. */
public enum ResourceKind {
  TENANT("Tenant"),
  NAMESPACE("Namespace"),
  STREAM("Stream"),
  SHARD_PLACEMENT("ShardPlacement"),
  BROKER("Broker"),
  BRIDGE("Bridge");

  private final String kindName;

  ResourceKind(String kindName) {
    this.kindName = kindName;
  }

  public String kindName() {
    return kindName;
  }

  public static Optional<ResourceKind> fromKindName(String name) {
    return Arrays.stream(values()).filter(k -> k.kindName.equals(name)).findFirst();
  }
}

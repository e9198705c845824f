package dev.controlplane.metadata.model;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A broker of the data plane as the control plane knows it. {@code labels} are the free-form
 * entries it registered with besides region and zone ({@link BrokerLabels} bounds them), kept
 * sorted by key so that documents and comparisons do not depend on the order they arrived in.
 */
public record Broker(
    String name,
    String address,
    String region,
    String availabilityZone,
    SortedMap<String, String> labels,
    Capacity capacity,
    Status status,
    long version)
    implements Resource {

  public Broker {
    region = region == null ? "" : region;
    availabilityZone = availabilityZone == null ? "" : availabilityZone;
    labels = labels == null ? Collections.emptySortedMap() : sorted(labels);
    capacity = capacity == null ? Capacity.UNLIMITED : capacity;
  }

  /** A broker without labels. */
  public Broker(
      String name,
      String address,
      String region,
      String availabilityZone,
      Capacity capacity,
      Status status,
      long version) {
    this(name, address, region, availabilityZone, null, capacity, status, version);
  }

  private static SortedMap<String, String> sorted(Map<String, String> labels) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(labels));
  }

  /** Capacity limits; a null value means not limited. */
  public record Capacity(Integer maxShards, Integer maxConnections) {
    public static final Capacity UNLIMITED = new Capacity(null, null);
  }

  public enum Status implements Stream.WireEnum {
    ACTIVE("active"),
    DRAINING("draining"),
    DOWN("down");

    private final String wire;

    Status(String wire) {
      this.wire = wire;
    }

    @Override
    public String wire() {
      return wire;
    }
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.BROKER;
  }

  @Override
  public String key() {
    return name;
  }

  @Override
  public Broker withVersion(long newVersion) {
    return new Broker(
        name, address, region, availabilityZone, labels, capacity, status, newVersion);
  }

  public Broker withStatus(Status newStatus) {
    return new Broker(
        name, address, region, availabilityZone, labels, capacity, newStatus, version);
  }
}

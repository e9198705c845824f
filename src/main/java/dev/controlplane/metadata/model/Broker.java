package dev.controlplane.metadata.model;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A broker of the data plane as the control plane knows it. {@code labels} are the free-form
 * entries it registered with besides region and zone ({@link BrokerLabels} bounds them), kept
 * sorted by key so that documents and comparisons do not depend on the order they arrived in.
 *
 * <p>{@code status} says whether the broker is alive and what it may take; {@code drainRequested}
 * is the operator's drain, which outlives a {@code down}. Only a down broker needs the flag: the
 * failure detector overwrites {@code draining} with {@code down}, and without it a drained broker
 * that stopped for its maintenance came back {@code active} and was given shards again. So the
 * constructor keeps the two in step while the broker is alive ({@code draining} exactly when drain
 * is requested) and lets the flag alone say, while it is down, how it comes back.
 */
public record Broker(
    String name,
    String address,
    String region,
    String availabilityZone,
    SortedMap<String, String> labels,
    Capacity capacity,
    Status status,
    boolean drainRequested,
    long version)
    implements Resource {

  public Broker {
    region = region == null ? "" : region;
    availabilityZone = availabilityZone == null ? "" : availabilityZone;
    labels = labels == null ? Collections.emptySortedMap() : sorted(labels);
    capacity = capacity == null ? Capacity.UNLIMITED : capacity;
    drainRequested = status == Status.DOWN ? drainRequested : status == Status.DRAINING;
  }

  /** A broker without labels whose drain is what its status says (a down one comes back active). */
  public Broker(
      String name,
      String address,
      String region,
      String availabilityZone,
      Capacity capacity,
      Status status,
      long version) {
    this(name, address, region, availabilityZone, null, capacity, status, false, version);
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
    return with(status, drainRequested, newVersion);
  }

  /** The same broker with {@code newStatus}; a drain requested while it was down is kept. */
  public Broker withStatus(Status newStatus) {
    return with(newStatus, drainRequested, version);
  }

  private Broker with(Status newStatus, boolean drain, long newVersion) {
    return new Broker(
        name, address, region, availabilityZone, labels, capacity, newStatus, drain, newVersion);
  }

  /** Whether it is alive (heartbeating): active or draining, which may both lead shards. */
  public boolean isLive() {
    return status != Status.DOWN;
  }

  /** The operator drains it: draining now, or, if it is down, once it is back. */
  public Broker drained() {
    return with(isLive() ? Status.DRAINING : Status.DOWN, true, version);
  }

  /** The operator ends its drain: active now, or, if it is down, once it is back. */
  public Broker undrained() {
    return with(isLive() ? Status.ACTIVE : Status.DOWN, false, version);
  }

  /** Failure detection marks it down; the operator's drain stays for its return. */
  public Broker markedDown() {
    return withStatus(Status.DOWN);
  }

  /** It heartbeats or registers again: a down broker returns draining if it was drained. */
  public Broker back() {
    return isLive() ? this : withStatus(drainRequested ? Status.DRAINING : Status.ACTIVE);
  }
}

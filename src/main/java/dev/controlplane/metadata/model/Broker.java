package dev.controlplane.metadata.model;

/** A broker of the data plane as the control plane knows it. */
public record Broker(
    String name,
    String address,
    String region,
    String availabilityZone,
    Capacity capacity,
    Status status,
    long version)
    implements Resource {

  public Broker {
    region = region == null ? "" : region;
    availabilityZone = availabilityZone == null ? "" : availabilityZone;
    capacity = capacity == null ? Capacity.UNLIMITED : capacity;
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
    return new Broker(name, address, region, availabilityZone, capacity, status, newVersion);
  }

  public Broker withStatus(Status newStatus) {
    return new Broker(name, address, region, availabilityZone, capacity, newStatus, version);
  }
}

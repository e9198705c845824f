package dev.controlplane.metadata.model;

import java.util.Arrays;
import java.util.Optional;

/** A stream definition. */
public record Stream(
    String tenant, String namespace, String name, StreamSpec spec, State state, long version)
    implements Resource {

  public Stream {
    state = state == null ? State.ACTIVE : state;
  }

  public record StreamSpec(
      int shards,
      Retention retention,
      Durability durability,
      int replicationFactor,
      AckPolicy ackPolicy) {
    public StreamSpec {
      retention = retention == null ? Retention.NONE : retention;
    }
  }

  /** Retention limits; a null value means not limited. */
  public record Retention(DurationValue time, SizeValue size) {
    public static final Retention NONE = new Retention(null, null);
  }

  public enum Durability implements WireEnum {
    DURABLE("durable"),
    EPHEMERAL("ephemeral");

    private final String wire;

    Durability(String wire) {
      this.wire = wire;
    }

    @Override
    public String wire() {
      return wire;
    }
  }

  public enum AckPolicy implements WireEnum {
    QUORUM("quorum"),
    LEADER_ONLY("leader_only");

    private final String wire;

    AckPolicy(String wire) {
      this.wire = wire;
    }

    @Override
    public String wire() {
      return wire;
    }
  }

  /** Lifecycle: a deleted stream stays {@code deleting} until its grace period ends. */
  public enum State implements WireEnum {
    ACTIVE("active"),
    DELETING("deleting");

    private final String wire;

    State(String wire) {
      this.wire = wire;
    }

    @Override
    public String wire() {
      return wire;
    }
  }

  public StreamRef ref() {
    return new StreamRef(tenant, namespace, name);
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.STREAM;
  }

  @Override
  public String key() {
    return ref().key();
  }

  @Override
  public Stream withVersion(long newVersion) {
    return new Stream(tenant, namespace, name, spec, state, newVersion);
  }

  public Stream withState(State newState) {
    return new Stream(tenant, namespace, name, spec, newState, version);
  }

  /** An enum with a lower-case wire form, as resources spell it. */
  public interface WireEnum {
    String wire();

    static <E extends Enum<E> & WireEnum> Optional<E> fromWire(Class<E> type, String wire) {
      return Arrays.stream(type.getEnumConstants()).filter(e -> e.wire().equals(wire)).findFirst();
    }
  }
}

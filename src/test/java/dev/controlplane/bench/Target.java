package dev.controlplane.bench;

import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * A system under the side-by-side benchmark: the control plane, etcd or Kafka's KRaft controller,
 * written and watched the same way by the same harness.
 */
interface Target extends AutoCloseable {

  String name();

  /** One durable write of {@code payload}-sized data; returns the version (revision) it got. */
  long write(int writer, int sequence) throws Exception;

  /** How many versioned updates one {@link #write} publishes (all in one commit). */
  default int updatesPerWrite() {
    return 1;
  }

  /** False for a system clients cannot watch: it has writes/s phases only. */
  default boolean watchable() {
    return true;
  }

  /** The latest committed version. */
  long head() throws Exception;

  /**
   * Opens watcher {@code index} from {@code fromVersion}; calls back with each update's version.
   */
  AutoCloseable watch(int index, long fromVersion, LongConsumer onUpdate);

  /** The control plane's write pipeline counters now; empty for a system that has none. */
  default Optional<PipelineCounters> pipeline() {
    return Optional.empty();
  }
}

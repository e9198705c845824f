package dev.controlplane.metadata.watch;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.MetadataUpdate;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Where a watch delivers: implemented by the transport (gRPC). The hub calls {@link #send}, {@link
 * #progress} and {@link #close} from one thread at a time per sink, and {@link #ready} from any
 * thread (its check for stalled watchers too).
 */
public interface WatchSink {

  /** Whether the transport can take a message now without buffering it. */
  boolean ready();

  void send(MetadataUpdate update);

  /** Tells the watcher it is current at {@code version} (no update payload). */
  void progress(long version);

  /** Ends the watch with a reason; the watcher resumes from its last applied version. */
  void close(ControlPlaneException reason);

  /**
   * Why the credentials this watch was opened with are no longer accepted (a broker certificate
   * revoked or expired since), or empty while they are; asked by the hub's periodic checks.
   */
  default Optional<String> credentialsWithdrawn() {
    return Optional.empty();
  }

  /**
   * The transport's own thread for this watch, where sending costs least, or null for none. Only
   * deliveries from memory run there, never a read of the log: it must not block.
   */
  default Executor deliveryExecutor() {
    return null;
  }
}

package dev.controlplane.grpc;

import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelFactory;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Bounds the gRPC connections open on the node at once. Every connection holds a transport, HTTP/2
 * state and buffers on the node even while idle, and the per-connection call limit does not bound
 * how many connections a client opens. A connection accepted beyond the limit is closed before it
 * is read from: its client sees the connection closed and retries, with backoff, here or on another
 * node. grpc-java has no such setting, so the limit sits in the listening socket's accept.
 */
public final class ConnectionLimit {

  private static final Logger LOG = Logger.getLogger(ConnectionLimit.class.getName());
  private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final int limit;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong lastWarning = new AtomicLong();
  private volatile Runnable onRefusal = () -> {};

  ConnectionLimit(int limit) {
    this.limit = limit;
  }

  /** The listening socket, which applies the limit as it accepts. */
  ChannelFactory<ServerChannel> listener() {
    return Listener::new;
  }

  /** Connections open now. */
  public int open() {
    return open.get();
  }

  /** Runs {@code counter} at every refused connection. */
  void countRefusals(Runnable counter) {
    this.onRefusal = counter;
  }

  private boolean admit(Channel connection) {
    if (open.incrementAndGet() > limit) {
      open.decrementAndGet();
      onRefusal.run();
      warn(connection);
      return false;
    }
    connection.closeFuture().addListener(closed -> open.decrementAndGet());
    return true;
  }

  private void warn(Channel connection) {
    long now = System.nanoTime();
    long last = lastWarning.get();
    if (last != 0 && now - last < WARN_EVERY_NANOS || !lastWarning.compareAndSet(last, now)) {
      return;
    }
    LOG.warning(
        "closed a gRPC connection from "
            + connection.remoteAddress()
            + " at once: "
            + limit
            + " connections are open, the most SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS allows"
            + " (logged at most once a minute; controlplane_grpc_connections_refused_total counts"
            + " them all)");
  }

  private final class Listener extends NioServerSocketChannel {

    @Override
    protected int doReadMessages(List<Object> accepted) throws Exception {
      int before = accepted.size();
      int read = super.doReadMessages(accepted);
      for (int i = accepted.size() - 1; i >= before; i--) {
        Channel connection = (Channel) accepted.get(i);
        if (!admit(connection)) {
          accepted.remove(i);
          // Not registered with an event loop yet: closes the socket itself, at once.
          connection.unsafe().closeForcibly();
          read--;
        }
      }
      return read;
    }
  }
}

package dev.controlplane.grpc;

import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelFactory;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Bounds the gRPC connections open on the node at once, in all and from one client address. Every
 * connection holds a transport, HTTP/2 state and buffers on the node even while idle, and the
 * per-connection call limit does not bound how many connections a client opens; without a bound per
 * address, one host that leaks connections would take every place and shut the other brokers out. A
 * connection accepted beyond a limit is closed before it is read from: its client sees the
 * connection closed and retries, with backoff, here or on another node. grpc-java has no such
 * setting, so the limits sit in the listening socket's accept.
 */
public final class ConnectionLimit {

  private static final Logger LOG = Logger.getLogger(ConnectionLimit.class.getName());
  private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final int limit;
  private final int perClient;
  private final AtomicInteger open = new AtomicInteger();
  private final ConcurrentHashMap<InetAddress, Integer> openByClient = new ConcurrentHashMap<>();
  private final AtomicLong lastWarning = new AtomicLong();
  private final AtomicLong lastClientWarning = new AtomicLong();
  private volatile Runnable onRefusal = () -> {};
  private volatile Runnable onClientRefusal = () -> {};

  ConnectionLimit(int limit, int perClient) {
    this.limit = limit;
    this.perClient = perClient;
  }

  /** The listening socket, which applies the limit as it accepts. */
  ChannelFactory<ServerChannel> listener() {
    return Listener::new;
  }

  /** Connections open now. */
  public int open() {
    return open.get();
  }

  /** Client addresses with a connection open now. */
  public int clients() {
    return openByClient.size();
  }

  /**
   * Runs {@code counter} at every connection refused because the node holds its most, and {@code
   * clientCounter} at every one refused because its client address does.
   */
  void countRefusals(Runnable counter, Runnable clientCounter) {
    this.onRefusal = counter;
    this.onClientRefusal = clientCounter;
  }

  private boolean admit(Channel connection) {
    if (open.incrementAndGet() > limit) {
      open.decrementAndGet();
      onRefusal.run();
      warn(
          lastWarning,
          "closed a gRPC connection from "
              + connection.remoteAddress()
              + " at once: "
              + limit
              + " connections are open, the most SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS allows"
              + " (logged at most once a minute; controlplane_grpc_connections_refused_total"
              + " counts them all)");
      return false;
    }
    InetAddress client = clientOf(connection);
    if (client != null && !admitFrom(client)) {
      open.decrementAndGet();
      onClientRefusal.run();
      warn(
          lastClientWarning,
          "closed a gRPC connection from "
              + connection.remoteAddress()
              + " at once: "
              + perClient
              + " connections from "
              + client.getHostAddress()
              + " are open, the most SERVICE_CONTROLPLANE_GRPC_MAX_CONNECTIONS_PER_CLIENT allows"
              + " (logged at most once a minute;"
              + " controlplane_grpc_connections_refused_per_client_total counts them all)");
      return false;
    }
    connection
        .closeFuture()
        .addListener(
            closed -> {
              if (client != null) {
                openByClient.computeIfPresent(client, (address, n) -> n == 1 ? null : n - 1);
              }
              open.decrementAndGet();
            });
    return true;
  }

  private boolean admitFrom(InetAddress client) {
    boolean[] admitted = {false};
    openByClient.compute(
        client,
        (address, n) -> {
          int now = n == null ? 0 : n;
          if (now >= perClient) {
            return n;
          }
          admitted[0] = true;
          return now + 1;
        });
    return admitted[0];
  }

  private static InetAddress clientOf(Channel connection) {
    return connection.remoteAddress() instanceof InetSocketAddress remote
        ? remote.getAddress()
        : null;
  }

  private static void warn(AtomicLong lastWarning, String message) {
    long now = System.nanoTime();
    long last = lastWarning.get();
    if (last != 0 && now - last < WARN_EVERY_NANOS || !lastWarning.compareAndSet(last, now)) {
      return;
    }
    LOG.warning(message);
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

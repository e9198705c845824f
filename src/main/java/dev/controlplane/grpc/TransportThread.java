package dev.controlplane.grpc;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerStreamTracer;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.Executor;

/**
 * Puts the Netty event loop that serves a call's connection into the call's {@link Context}.
 *
 * <p>A message sent on that loop is framed and queued where it will be written: the messages of
 * every watch on one connection that a commit wakes go out in one flush, with no hand-off to wake
 * the loop per message. grpc-java creates a stream's tracer on the transport's own thread, which is
 * where the loop is recognised.
 */
final class TransportThread extends ServerStreamTracer.Factory {

  /** The loop of the current call's connection; absent when it could not be told. */
  static final Context.Key<Executor> EVENT_LOOP = Context.key("controlplane-event-loop");

  private final EventLoopGroup loops;

  TransportThread(EventLoopGroup loops) {
    this.loops = loops;
  }

  @Override
  public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
    Executor current = currentLoop();
    return new ServerStreamTracer() {
      @Override
      public Context filterContext(Context context) {
        return current == null ? context : context.withValue(EVENT_LOOP, current);
      }
    };
  }

  /** Whether this thread is the event loop of the current call's connection. */
  static boolean onCallsLoop() {
    return EVENT_LOOP.get() instanceof EventExecutor loop && loop.inEventLoop();
  }

  private Executor currentLoop() {
    for (EventExecutor loop : loops) {
      if (loop.inEventLoop()) {
        return loop;
      }
    }
    return null;
  }
}

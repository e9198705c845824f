package dev.controlplane.auth;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body of at most {@code max} bytes, collected without blocking any thread: a larger
 * body, or one {@link #abort aborted} at the fetch's deadline, cancels the subscription (which
 * closes the connection) instead of waiting for a server that trickles bytes.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {

  private final int max;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private volatile Flow.Subscription subscription;

  LimitedBody(int max) {
    this.max = max;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (result.isDone()) {
      s.cancel();
    } else {
      s.request(Long.MAX_VALUE);
    }
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer item : items) {
      if (bytes.size() + item.remaining() > max) {
        fail(
            new KeyFetcher.KeyFetchFailed(
                "the issuer's response is larger than " + max + " bytes"));
        return;
      }
      byte[] chunk = new byte[item.remaining()];
      item.get(chunk);
      bytes.write(chunk, 0, chunk.length);
    }
  }

  @Override
  public void onError(Throwable error) {
    result.completeExceptionally(error);
  }

  @Override
  public void onComplete() {
    result.complete(bytes.toByteArray());
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  /** Gives up on the body: the connection is closed, whatever the server still sends. */
  void abort(RuntimeException why) {
    fail(why);
  }

  private void fail(RuntimeException why) {
    result.completeExceptionally(why);
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
  }
}

package dev.controlplane.bench;

import com.google.protobuf.ByteString;
import dev.controlplane.it.support.Grpc;
import io.etcd.jetcd.api.Event;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.WatchCreateRequest;
import io.etcd.jetcd.api.WatchGrpc;
import io.etcd.jetcd.api.WatchRequest;
import io.etcd.jetcd.api.WatchResponse;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * etcd written with {@code Put} of a value the size of a namespace document and watched with one
 * {@code Watch} stream per watcher on the benchmark's key prefix, over the same grpc-java as the
 * control plane's watchers (10 channels shared by the watchers, one per writer).
 */
final class EtcdTarget implements Target {

  private static final String PREFIX = "/bench/";
  private static final ByteString VALUE =
      ByteString.copyFromUtf8(ControlPlaneTarget.sampleDocument());

  private final EtcdProcess etcd;
  private final List<Grpc> channels = new ArrayList<>();

  EtcdTarget(EtcdProcess etcd, int channelCount) {
    this.etcd = etcd;
    for (int i = 0; i < channelCount; i++) {
      channels.add(new Grpc(etcd.clientPort, null));
    }
  }

  @Override
  public String name() {
    return "etcd";
  }

  private Grpc channel(int index) {
    return channels.get(index % channels.size());
  }

  @Override
  public long write(int writer, int sequence) {
    String key = PREFIX + "w" + writer + "-" + (sequence % 100);
    return KVGrpc.newBlockingStub(channel(writer).channel())
        .put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).setValue(VALUE).build())
        .getHeader()
        .getRevision();
  }

  @Override
  public long head() {
    return KVGrpc.newBlockingStub(channel(0).channel())
        .range(
            RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(PREFIX)).setLimit(1).build())
        .getHeader()
        .getRevision();
  }

  @Override
  public AutoCloseable watch(int index, long fromVersion, LongConsumer onUpdate) {
    StreamObserver<WatchRequest> requests =
        WatchGrpc.newStub(channel(index).channel())
            .watch(
                new StreamObserver<>() {
                  @Override
                  public void onNext(WatchResponse response) {
                    for (Event e : response.getEventsList()) {
                      onUpdate.accept(e.getKv().getModRevision());
                    }
                  }

                  @Override
                  public void onError(Throwable t) {}

                  @Override
                  public void onCompleted() {}
                });
    requests.onNext(
        WatchRequest.newBuilder()
            .setCreateRequest(
                WatchCreateRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8(PREFIX))
                    .setRangeEnd(ByteString.copyFromUtf8("/bench0"))
                    .setStartRevision(fromVersion + 1))
            .build());
    return requests::onCompleted;
  }

  @Override
  public void close() throws Exception {
    channels.forEach(Grpc::close);
    etcd.close();
  }
}

package dev.controlplane.cli.client;

import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.CreateStreamRequest;
import dev.controlplane.proto.v1.CreateStreamResponse;
import dev.controlplane.proto.v1.ListStreamsRequest;
import dev.controlplane.proto.v1.ListStreamsResponse;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An AdminService that answers every CreateStream and ListStreams the same way, as a test scripts
 * it, and counts the calls it got. An answer carries the node's name (as the stream id, and as the
 * page token of a list), so that a test sees which node served it.
 */
final class ScriptedAdmin extends AdminServiceGrpc.AdminServiceImplBase {

  private enum Mode {
    ANSWER,
    FAIL,
    SILENT
  }

  final AtomicInteger calls = new AtomicInteger();
  private final String name;
  private final Mode mode;
  private final StatusRuntimeException failure;

  private ScriptedAdmin(String name, Mode mode, StatusRuntimeException failure) {
    this.name = name;
    this.mode = mode;
    this.failure = failure;
  }

  static ScriptedAdmin answering(String name) {
    return new ScriptedAdmin(name, Mode.ANSWER, null);
  }

  static ScriptedAdmin failing(StatusRuntimeException failure) {
    return new ScriptedAdmin("failing", Mode.FAIL, failure);
  }

  /** Takes every call and never answers, as a frozen node. */
  static ScriptedAdmin silent() {
    return new ScriptedAdmin("silent", Mode.SILENT, null);
  }

  @Override
  public void createStream(
      CreateStreamRequest request, StreamObserver<CreateStreamResponse> response) {
    answer(response, CreateStreamResponse.newBuilder().setStreamId(name).build());
  }

  @Override
  public void listStreams(
      ListStreamsRequest request, StreamObserver<ListStreamsResponse> response) {
    answer(response, ListStreamsResponse.newBuilder().setNextPageToken(name).build());
  }

  private <T> void answer(StreamObserver<T> response, T value) {
    calls.incrementAndGet();
    switch (mode) {
      case ANSWER -> {
        response.onNext(value);
        response.onCompleted();
      }
      case FAIL -> response.onError(failure);
      case SILENT -> {}
    }
  }
}

package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.it.support.RawCalls;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a client that gets a method's request wrong is answered, over a real HTTP/2 connection on
 * loopback: INVALID_ARGUMENT naming the method, never grpc-java's UNKNOWN or INTERNAL.
 */
class MalformedRequestsTest {

  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(
                MalformedRequests.guard(new HealthStatusManager().getHealthService().bindService()))
            .build()
            .start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  private Status call(MethodDescriptor<?, ?> method, List<byte[]> requests) {
    return RawCalls.call(channel, method, requests, Duration.ofSeconds(10));
  }

  @Test
  void aRequestThatDoesNotParseIsInvalidArgument() {
    Status status = call(HealthGrpc.getCheckMethod(), List.of(new byte[] {0x0a, 0x05, 'a'}));
    assertThat(status.getCode()).as(status.toString()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(status.getDescription()).contains("grpc.health.v1.Health/Check");
  }

  @Test
  void aCallWithoutItsRequestIsInvalidArgument() {
    for (MethodDescriptor<?, ?> method :
        List.of(HealthGrpc.getCheckMethod(), HealthGrpc.getWatchMethod())) {
      Status status = call(method, List.of());
      assertThat(status.getCode()).as(status.toString()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(status.getDescription()).contains("without its request message");
    }
  }

  /**
   * grpc-java's server call resets a unary or server-streaming call at its second request message
   * before any listener sees it: the client learns of its mistake as CANCELLED, never as a fault of
   * the server (INTERNAL or UNKNOWN), and nothing runs.
   */
  @Test
  void aCallWithSeveralRequestsIsResetNeverAnsweredAsAServerFault() {
    for (MethodDescriptor<?, ?> method :
        List.of(HealthGrpc.getCheckMethod(), HealthGrpc.getWatchMethod())) {
      Status status = call(method, java.util.Collections.nCopies(2, new byte[0]));
      assertThat(status.getCode())
          .as(method.getFullMethodName() + ": " + status)
          .isIn(Status.Code.CANCELLED, Status.Code.INVALID_ARGUMENT);
    }
  }

  @Test
  void oneRequestIsServedAsBefore() {
    Status status = call(HealthGrpc.getCheckMethod(), List.of(new byte[0]));
    assertThat(status.getCode()).as(status.toString()).isEqualTo(Status.Code.OK);
  }
}

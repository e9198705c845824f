package dev.controlplane.cli.client;

import dev.controlplane.cli.config.CredentialsConfig;
import dev.controlplane.cli.config.Target;
import dev.controlplane.proto.v1.CreateStreamRequest;
import dev.controlplane.proto.v1.ListStreamsRequest;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** GrpcClients for a context of the given gRPC servers, with an operator token, and their calls. */
final class TestClients {

  private TestClients() {}

  static GrpcClient plaintext(String... grpcServers) {
    return client(Map.of(), Optional.empty(), Optional.empty(), grpcServers);
  }

  static GrpcClient client(
      Map<String, String> env,
      Optional<Path> caFile,
      Optional<Target.ClientCertificate> clientCertificate,
      String... grpcServers) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.putIfAbsent("CPCTL_TOKEN", "operator");
    Target target =
        new Target(
            "test",
            List.of(URI.create("http://127.0.0.1:9")),
            List.of(grpcServers),
            caFile,
            clientCertificate,
            Optional.of("acme"),
            new CredentialsConfig(),
            all);
    return new GrpcClient(target, new Credentials(target));
  }

  /** A CreateStream: a write that must not be applied twice. Returns the serving node's name. */
  static String create(GrpcClient client) {
    CreateStreamRequest request =
        CreateStreamRequest.newBuilder()
            .setTenantId("acme")
            .setNamespace("payments")
            .setStream("orders")
            .build();
    return client
        .admin("acme", GrpcClient.Effect.WRITE, a -> a.createStream(request))
        .getStreamId();
  }

  /** A ListStreams: a read. Returns the serving node's name. */
  static String list(GrpcClient client) {
    ListStreamsRequest request =
        ListStreamsRequest.newBuilder().setTenantId("acme").setNamespace("payments").build();
    return client
        .admin("acme", GrpcClient.Effect.NONE, a -> a.listStreams(request))
        .getNextPageToken();
  }
}

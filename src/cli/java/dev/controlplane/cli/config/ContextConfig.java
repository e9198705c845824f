package dev.controlplane.cli.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/** One named context: the servers of one control plane cluster and how to authenticate there. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@com.fasterxml.jackson.annotation.JsonPropertyOrder({
  "name",
  "servers",
  "grpc-servers",
  "ca-file",
  "client-cert",
  "client-key",
  "tenant",
  "credentials"
})
public final class ContextConfig {

  public String name;

  /** HTTP base URLs of the cluster's nodes, for example {@code http://127.0.0.1:9080}. */
  public List<String> servers = new ArrayList<>();

  /**
   * gRPC addresses of the nodes: {@code host:port} (plaintext) or {@code https://host:port} (TLS).
   */
  @JsonProperty("grpc-servers")
  public List<String> grpcServers = new ArrayList<>();

  /** PEM file of the CA that signed the servers' certificates (https URLs only). */
  @JsonProperty("ca-file")
  public String caFile;

  /**
   * PEM certificate chain cpctl presents on gRPC over TLS: a broker's certificate, for {@code
   * watch} and {@code snapshot} on a cluster that requires mutual TLS for broker RPCs.
   */
  @JsonProperty("client-cert")
  public String clientCert;

  /** PEM PKCS#8 private key of {@link #clientCert}. */
  @JsonProperty("client-key")
  public String clientKey;

  /** The tenant of tenant-scoped commands when {@code --tenant} is not given. */
  public String tenant;

  public CredentialsConfig credentials = new CredentialsConfig();

  ContextConfig redacted() {
    ContextConfig copy = new ContextConfig();
    copy.name = name;
    copy.servers = servers;
    copy.grpcServers = grpcServers;
    copy.caFile = caFile;
    copy.clientCert = clientCert;
    copy.clientKey = clientKey;
    copy.tenant = tenant;
    copy.credentials = credentials == null ? null : credentials.redacted();
    return copy;
  }
}

package dev.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.cli.InProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS file of the context that cannot be used ends a gRPC command as it ends an HTTP one: exit 3,
 * naming the file and the setting to fix, before anything is sent.
 */
class GrpcClientTlsSettingsTest {

  private static final String TLS_NODE = "https://127.0.0.1:9";

  private static InProcess.Run streamsList(Map<String, String> env) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("CPCTL_TOKEN", "operator");
    return InProcess.cpctl(
        all, "--grpc-server", TLS_NODE, "streams", "list", "-t", "acme", "-n", "payments");
  }

  @Test
  void aCaFileWithoutACertificateIsAConfigurationErrorNamingTheFileAndTheSetting(@TempDir Path dir)
      throws Exception {
    Path notPem = Files.writeString(dir.resolve("ca.pem"), "not a certificate\n");

    InProcess.Run grpc = streamsList(Map.of("CPCTL_CA_FILE", notPem.toString()));
    InProcess.Run http =
        InProcess.cpctl(
            Map.of("CPCTL_CA_FILE", notPem.toString(), "CPCTL_TOKEN", "operator"),
            "-s",
            TLS_NODE,
            "get",
            "tenants");

    for (InProcess.Run run : new InProcess.Run[] {grpc, http}) {
      assertThat(run.exit()).as(run.err()).isEqualTo(3);
      assertThat(run.err())
          .contains("cannot use ca-file " + notPem)
          .contains("CPCTL_CA_FILE")
          .doesNotContain("unexpected");
    }
  }

  @Test
  void aMissingCaFileIsAConfigurationErrorNamingTheFileAndTheSetting(@TempDir Path dir) {
    Path missing = dir.resolve("absent.pem");

    InProcess.Run run = streamsList(Map.of("CPCTL_CA_FILE", missing.toString()));

    assertThat(run.exit()).as(run.err()).isEqualTo(3);
    assertThat(run.err()).contains(missing.toString()).contains("CPCTL_CA_FILE");
  }

  @Test
  void aClientCertificateThatIsNotPemIsAConfigurationErrorNamingBothFilesAndSettings(
      @TempDir Path dir) throws Exception {
    Path cert = Files.writeString(dir.resolve("broker.crt"), "not a certificate\n");
    Path key = Files.writeString(dir.resolve("broker.key"), "not a key\n");

    InProcess.Run run =
        streamsList(
            Map.of("CPCTL_CLIENT_CERT", cert.toString(), "CPCTL_CLIENT_KEY", key.toString()));

    assertThat(run.exit()).as(run.err()).isEqualTo(3);
    assertThat(run.err())
        .contains(cert.toString())
        .contains(key.toString())
        .contains("CPCTL_CLIENT_CERT")
        .doesNotContain("unexpected");
  }
}

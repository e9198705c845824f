package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.it.support.Certificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SERVICE_CONTROLPLANE_OIDC_CA_FILE: read at start; a file that cannot be used stops it. */
class IssuerCaFileSettingTest {

  @Test
  void unsetMeansTheJdksCasOnly() {
    AuthConfig auth = new AuthConfig();
    auth.issuerCaFile = Optional.empty();
    assertThat(auth.issuerCaCertificates()).isEmpty();
    auth.issuerCaFile = Optional.of("  ");
    assertThat(auth.issuerCaCertificates()).isEmpty();
  }

  @Test
  void aBundleOfTwoCasIsReadWhole(@TempDir Path dir) throws Exception {
    Certificates certificates = new Certificates(dir);
    Path bundle = dir.resolve("bundle.pem");
    Files.writeString(
        bundle,
        Files.readString(certificates.ca("first").cert())
            + Files.readString(certificates.ca("second").cert()));
    AuthConfig auth = new AuthConfig();
    auth.issuerCaFile = Optional.of(bundle.toString());
    assertThat(auth.issuerCaCertificates())
        .extracting(c -> c.getSubjectX500Principal().getName())
        .containsExactly("CN=first", "CN=second");
  }

  @Test
  void aMissingFileOrOneWithoutCertificatesIsRefusedNamingTheSettingAndTheFile(@TempDir Path dir)
      throws Exception {
    Path notPem = Files.writeString(dir.resolve("not.pem"), "just text\n");
    for (Path file : new Path[] {dir.resolve("missing.pem"), notPem}) {
      AuthConfig auth = new AuthConfig();
      auth.issuerCaFile = Optional.of(file.toString());
      assertThatThrownBy(auth::issuerCaCertificates)
          .as(file.toString())
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("SERVICE_CONTROLPLANE_OIDC_CA_FILE")
          .hasMessageContaining(file.toString());
    }
  }
}

package dev.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.Path;
import java.io.File;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A 406 or 415 names the media types the resource really offers, not every one the API knows. */
class OfferedRepresentationsTest {

  @Test
  void metadataDocumentsOfferJsonAndYaml() {
    assertThat(OfferedRepresentations.at("/v1/tenants/acme"))
        .isEqualTo(OfferedRepresentations.JSON_OR_YAML);
    assertThat(OfferedRepresentations.at("v1/tenants/acme/namespaces/ns/streams/orders"))
        .isEqualTo(OfferedRepresentations.JSON_OR_YAML);
    assertThat(OfferedRepresentations.at("/v1/bridges/b1"))
        .isEqualTo(OfferedRepresentations.JSON_OR_YAML);
  }

  @Test
  void auditIssuersRbacKeysExchangeAndJwksOfferJsonOnly() {
    for (String path :
        List.of(
            "/v1/tenants/acme/audit",
            "/v1/audit",
            "/v1/tenants/acme/idp-issuers/https%3A%2F%2Fidp.example",
            "/v1/tenants/acme/rbac/policies",
            "/v1/tenants/acme/signing-keys/rotate",
            "/v1/tenants/acme/token/exchange",
            "/v1/tenants/acme/.well-known/jwks.json")) {
      assertThat(OfferedRepresentations.at(path))
          .as(path)
          .isEqualTo(OfferedRepresentations.JSON_ONLY);
    }
  }

  @Test
  void aTenantNamedLikeAJsonOnlyFamilyIsStillATenant() {
    assertThat(OfferedRepresentations.at("/v1/tenants/audit"))
        .isEqualTo(OfferedRepresentations.JSON_OR_YAML);
  }

  @Test
  void pathsOfNoResourceGetTheGeneralAnswer() {
    assertThat(OfferedRepresentations.at("/v2/nothing"))
        .isEqualTo(OfferedRepresentations.JSON_OR_YAML);
    assertThat(OfferedRepresentations.at(null)).isEqualTo(OfferedRepresentations.JSON_OR_YAML);
  }

  @Test
  void everyResourceClassOfTheApiIsListed() throws URISyntaxException, ClassNotFoundException {
    // The main classes' directory, not the first one of the package (the tests' own).
    File dir =
        new File(
            new File(
                OfferedRepresentations.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI()),
            "dev/controlplane/http");
    List<Class<?>> resources = new ArrayList<>();
    for (String name : dir.list((d, n) -> n.endsWith(".class") && !n.contains("$"))) {
      Class<?> type =
          Class.forName("dev.controlplane.http." + name.substring(0, name.length() - 6));
      if (type.isAnnotationPresent(Path.class)) {
        resources.add(type);
      }
    }
    assertThat(resources).isNotEmpty();
    assertThat(OfferedRepresentations.RESOURCES).containsExactlyInAnyOrderElementsOf(resources);
  }
}

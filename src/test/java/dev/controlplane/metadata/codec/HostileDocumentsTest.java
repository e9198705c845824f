package dev.controlplane.metadata.codec;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.Tenant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Documents built to mislead or to amplify: YAML anchors and aliases are refused rather than stored
 * as something the author did not write, and thousands of bad fields get a bounded answer.
 */
class HostileDocumentsTest {

  private final ResourceCodec codec = new ResourceCodec();

  @Test
  void yamlAnchorsAndAliasesAreRefusedNamingTheRule() {
    for (String yaml :
        new String[] {
          "apiVersion: controlplane/v1\nkind: Tenant\nspec: &s {description: *s}\n",
          "apiVersion: controlplane/v1\nkind: Tenant\nmetadata: {name: &n acme}\nspec: {description: *n}\n",
          "base: &b {description: x}\napiVersion: controlplane/v1\nkind: Tenant\nspec:\n  <<: *b\n"
        }) {
      assertThatThrownBy(() -> codec.parse(yaml.getBytes(UTF_8), DocumentFormat.YAML))
          .as(yaml)
          .isInstanceOf(ControlPlaneException.class)
          .hasMessageContaining("anchors and aliases");
    }
  }

  @Test
  void plainYamlWithAmpersandsAndAsterisksInStringsIsRead() {
    var doc =
        codec.parse(
            "apiVersion: controlplane/v1\nkind: Tenant\nspec: {description: \"R&D *east*\"}\n"
                .getBytes(UTF_8),
            DocumentFormat.YAML);
    Tenant tenant = (Tenant) codec.read(doc, ResourceKind.TENANT, Map.of("name", "acme"));
    assertThat(tenant.description()).isEqualTo("R&D *east*");
  }

  @Test
  void thousandsOfUnknownFieldsAreCountedButOnlyTwentyListed() {
    StringBuilder json =
        new StringBuilder("{\"apiVersion\":\"controlplane/v1\",\"kind\":\"Tenant\"");
    for (int i = 0; i < 10_000; i++) {
      json.append(",\"unknown").append(i).append("\":1");
    }
    json.append(",\"").append("k".repeat(5_000)).append("\":1}");
    var doc = codec.parse(json.toString().getBytes(UTF_8), DocumentFormat.JSON);
    assertThatThrownBy(() -> codec.read(doc, ResourceKind.TENANT, Map.of("name", "acme")))
        .isInstanceOfSatisfying(
            ControlPlaneException.class,
            e -> {
              assertThat(e.getMessage())
                  .isEqualTo("10001 fields are invalid; the first 20 are listed");
              assertThat(e.fieldErrors()).hasSize(ControlPlaneException.MAX_LISTED_ERRORS);
              assertThat(e.fieldErrors()).allMatch(f -> f.field().length() <= 203);
            });
  }
}

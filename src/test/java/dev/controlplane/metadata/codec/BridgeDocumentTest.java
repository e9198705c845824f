package dev.controlplane.metadata.codec;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ControlPlaneException.FieldError;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Bridge;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.StreamRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a Bridge document may hold, and the field each mistake is reported on. */
class BridgeDocumentTest {

  private final ResourceCodec codec = new ResourceCodec();

  private Bridge read(String yaml) {
    return (Bridge)
        codec.read(
            codec.parse(yaml.getBytes(UTF_8), DocumentFormat.YAML),
            ResourceKind.BRIDGE,
            Map.of("name", "b1"));
  }

  private List<FieldError> errors(String spec) {
    ControlPlaneException e =
        catchThrowableOfType(
            () -> read("apiVersion: controlplane/v1\nkind: Bridge\nspec: " + spec),
            ControlPlaneException.class);
    assertThat(e).as("refused: %s", spec).isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
    return e.fieldErrors();
  }

  private List<String> fields(String spec) {
    return errors(spec).stream().map(FieldError::field).toList();
  }

  @Test
  void aBridgeNamesItsRegionsStreamsAndKey() {
    Bridge b =
        read(
            """
            apiVersion: controlplane/v1
            kind: Bridge
            metadata: {name: b1}
            spec:
              source_region: eu-west-1
              target_region: us-east-1
              streams:
                - {tenant: acme, namespace: orders, stream: payments}
                - {tenant: globex, namespace: ops, stream: audit}
              encryption: {key_id: kms-1}
            """);
    assertThat(b)
        .isEqualTo(
            new Bridge(
                "b1",
                "eu-west-1",
                "us-east-1",
                List.of(
                    new StreamRef("acme", "orders", "payments"),
                    new StreamRef("globex", "ops", "audit")),
                "kms-1",
                0));
  }

  @Test
  void streamsAndEncryptionMayBeLeftOut() {
    Bridge b =
        read(
            "apiVersion: controlplane/v1\nkind: Bridge\nspec: {source_region: a, target_region: b}");
    assertThat(b.streams()).isEmpty();
    assertThat(b.encryptionKeyId()).isEmpty();
  }

  @Test
  void bothRegionsAreRequiredAndNotEmpty() {
    assertThat(fields("{}")).containsExactly("spec.source_region", "spec.target_region");
    assertThat(fields("{source_region: '', target_region: ' '}"))
        .containsExactly("spec.source_region", "spec.target_region");
    assertThat(fields("{source_region: 1, target_region: b}"))
        .containsExactly("spec.source_region");
  }

  @Test
  void aBridgeFromARegionToItselfIsRefusedOnTheTarget() {
    assertThat(errors("{source_region: eu, target_region: eu}"))
        .containsExactly(
            new FieldError("spec.target_region", "must differ from spec.source_region ('eu')"));
  }

  @Test
  void eachStreamNeedsTenantNamespaceAndStreamOnceEach() {
    assertThat(
            fields(
                "{source_region: a, target_region: b, streams: [{tenant: acme, namespace: o},"
                    + " {tenant: acme, namespace: o, stream: 'Not A Name'}, 7,"
                    + " {tenant: acme, namespace: o, stream: s, shard: 1}]}"))
        .containsExactly(
            "spec.streams[0].stream",
            "spec.streams[1].stream",
            "spec.streams[2]",
            "spec.streams[3].shard");
    assertThat(
            errors(
                "{source_region: a, target_region: b, streams: [{tenant: t, namespace: n, stream:"
                    + " s}, {tenant: t, namespace: n, stream: s}]}"))
        .containsExactly(new FieldError("spec.streams[1]", "names stream t/n/s a second time"));
  }

  @Test
  void streamsMustBeAnArrayOfAtMostAThousand() {
    assertThat(fields("{source_region: a, target_region: b, streams: {tenant: t}}"))
        .containsExactly("spec.streams");
    StringBuilder many = new StringBuilder("{source_region: a, target_region: b, streams: [");
    for (int i = 0; i <= 1000; i++) {
      many.append(i == 0 ? "" : ", ").append("{tenant: t, namespace: n, stream: s").append(i);
      many.append('}');
    }
    assertThat(errors(many.append("]}").toString()))
        .containsExactly(
            new FieldError("spec.streams", "must hold at most 1000 streams, not 1001"));
  }

  @Test
  void unknownFieldsAreNamed() {
    assertThat(fields("{source_region: a, target_region: b, mode: sync}"))
        .containsExactly("spec.mode");
    assertThat(fields("{source_region: a, target_region: b, encryption: {key: k}}"))
        .containsExactly("spec.encryption.key");
  }
}

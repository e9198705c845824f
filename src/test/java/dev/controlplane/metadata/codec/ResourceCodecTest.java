package dev.controlplane.metadata.codec;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ControlPlaneException.FieldError;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Bridge;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.model.DurationValue;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.Resource;
import dev.controlplane.metadata.model.ResourceKind;
import dev.controlplane.metadata.model.ShardPlacement;
import dev.controlplane.metadata.model.ShardPlacement.ShardAssignment;
import dev.controlplane.metadata.model.SizeValue;
import dev.controlplane.metadata.model.Stream;
import dev.controlplane.metadata.model.Stream.AckPolicy;
import dev.controlplane.metadata.model.Stream.Durability;
import dev.controlplane.metadata.model.Stream.Retention;
import dev.controlplane.metadata.model.Stream.StreamSpec;
import dev.controlplane.metadata.model.StreamRef;
import dev.controlplane.metadata.model.Tenant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResourceCodecTest {

  private static final Map<String, String> NO_IDENTITY = Map.of();
  private static final Map<String, String> STREAM_PATH =
      Map.of("tenant", "acme", "namespace", "orders", "name", "payments");

  private final ResourceCodec codec = new ResourceCodec();

  // ---------------------------------------------------------------- fixtures

  private static final String STREAM_JSON =
      """
      {
        "apiVersion": "controlplane/v1",
        "kind": "Stream",
        "metadata": {"tenant": "acme", "namespace": "orders", "name": "payments"},
        "spec": {
          "shards": 3,
          "retention": {"time": "7d", "size": "10GiB"},
          "durability": "ephemeral",
          "replication_factor": 3,
          "ack_policy": "leader_only"
        }
      }
      """;

  private static final String STREAM_YAML =
      """
      apiVersion: controlplane/v1
      kind: Stream
      metadata:
        tenant: acme
        namespace: orders
        name: payments
      spec:
        shards: 3
        retention:
          time: 7d
          size: 10GiB
        durability: ephemeral
        replication_factor: 3
        ack_policy: leader_only
      """;

  private static final Stream EXPECTED_STREAM =
      new Stream(
          "acme",
          "orders",
          "payments",
          new StreamSpec(
              3,
              new Retention(DurationValue.of("7d"), SizeValue.parse("10GiB").orElseThrow()),
              Durability.EPHEMERAL,
              3,
              AckPolicy.LEADER_ONLY),
          Stream.State.ACTIVE,
          0);

  private static Tenant fullTenant() {
    return new Tenant(
        "acme",
        "ACME Corp.",
        new Tenant.TenantQuotas(100L, 5_000L, SizeValue.parse("1TiB").orElseThrow()),
        new Tenant.Encryption("kms://key/1", DurationValue.of("30d")),
        12);
  }

  private static Tenant bareTenant() {
    return new Tenant("bare", null, null, null, 3);
  }

  private static Namespace fullNamespace() {
    return new Namespace(
        "acme", "orders", "order events", new Namespace.NamespaceQuotas(10L, 200L), 7);
  }

  private static Namespace bareNamespace() {
    return new Namespace("acme", "misc", null, null, 8);
  }

  private static Stream fullStream() {
    return EXPECTED_STREAM.withVersion(21);
  }

  private static Stream deletingStream() {
    return new Stream(
        "acme",
        "orders",
        "old",
        new StreamSpec(
            1024,
            new Retention(null, SizeValue.parse("5MB").orElseThrow()),
            Durability.DURABLE,
            16,
            AckPolicy.QUORUM),
        Stream.State.DELETING,
        22);
  }

  private static Broker fullBroker() {
    return new Broker(
        "broker-1.a",
        "broker-1.internal:9092",
        "eu-west-1",
        "eu-west-1a",
        new java.util.TreeMap<>(Map.of("rack", "r7", "topology.kubernetes.io/node", "n-12")),
        new Broker.Capacity(64, 10_000),
        Broker.Status.DRAINING,
        true,
        30);
  }

  private static Broker bareBroker() {
    return new Broker("b2", "[::1]:9092", null, null, null, Broker.Status.ACTIVE, 31);
  }

  /** Down, and drained by the operator: it comes back draining. */
  private static Broker downDrainedBroker() {
    return new Broker(
        "b3", "b3:9092", "r", "z", null, Broker.Capacity.UNLIMITED, Broker.Status.DOWN, true, 32);
  }

  private static ShardPlacement placement() {
    return new ShardPlacement(
        "acme",
        "orders",
        "payments",
        List.of(
            new ShardAssignment(0, "b1", List.of("b1", "b2", "b3")),
            new ShardAssignment(1, "b2", List.of("b2", "b3", "b1"))),
        40);
  }

  private static Bridge fullBridge() {
    return new Bridge(
        "eu-to-us",
        "eu-west-1",
        "us-east-1",
        List.of(
            new StreamRef("acme", "orders", "payments"), new StreamRef("globex", "ops", "audit")),
        "kms:eu/bridge-1",
        50);
  }

  private static Bridge bareBridge() {
    return new Bridge("idle", "a", "b", List.of(), null, 51);
  }

  static List<Resource> resources() {
    return List.of(
        fullTenant(),
        bareTenant(),
        fullNamespace(),
        bareNamespace(),
        fullStream(),
        deletingStream(),
        fullBroker(),
        bareBroker(),
        downDrainedBroker(),
        placement(),
        fullBridge(),
        bareBridge());
  }

  // ---------------------------------------------------------------- helpers

  private JsonNode json(String text) {
    return codec.parse(text.getBytes(UTF_8), DocumentFormat.JSON);
  }

  private JsonNode yaml(String text) {
    return codec.parse(text.getBytes(UTF_8), DocumentFormat.YAML);
  }

  private static ControlPlaneException assertValidationFailure(Runnable action) {
    ControlPlaneException e = assertThrows(ControlPlaneException.class, action::run);
    assertEquals(ErrorCode.VALIDATION_FAILED, e.code());
    return e;
  }

  private static List<String> fields(ControlPlaneException e) {
    return e.fieldErrors().stream().map(FieldError::field).toList();
  }

  /** Reads {@link #STREAM_JSON} after {@code edit} changed it and returns the reported paths. */
  private List<String> streamErrors(Consumer<ObjectNode> edit) {
    ObjectNode doc = (ObjectNode) json(STREAM_JSON);
    edit.accept(doc);
    ControlPlaneException e =
        assertValidationFailure(() -> codec.read(doc, ResourceKind.STREAM, NO_IDENTITY));
    return fields(e);
  }

  private static ObjectNode spec(ObjectNode doc) {
    return (ObjectNode) doc.get("spec");
  }

  private static ObjectNode metadata(ObjectNode doc) {
    return (ObjectNode) doc.get("metadata");
  }

  private List<String> tenantErrors(String jsonDoc, Map<String, String> identity) {
    JsonNode doc = json(jsonDoc);
    return fields(assertValidationFailure(() -> codec.read(doc, ResourceKind.TENANT, identity)));
  }

  private static String brokerDoc(String address) {
    return """
        {"apiVersion": "controlplane/v1", "kind": "Broker",
         "metadata": {"name": "b1"},
         "spec": {"address": "%s", "availability_zone": "z1"}}
        """
        .formatted(address);
  }

  // ---------------------------------------------------------------- reading valid documents

  @Test
  void aYamlBodyOfSeveralDocumentsIsRefusedNamingTheCount() {
    String twoMore = STREAM_YAML + "\n---\n" + STREAM_YAML + "\n---\n" + STREAM_YAML;
    ControlPlaneException e = assertValidationFailure(() -> yaml(twoMore));
    assertThat(e.fieldErrors()).hasSize(1);
    assertThat(e.fieldErrors().get(0).field()).isEqualTo("body");
    assertThat(e.fieldErrors().get(0).message()).contains("holds 3 YAML documents");
  }

  @Test
  void aFieldNamedTwiceIsRefusedInJsonAndYamlNamingIt() {
    for (Runnable parse :
        List.<Runnable>of(
            () -> json("{\"kind\": \"Tenant\", \"spec\": {}, \"spec\": {}}"),
            () -> yaml("kind: Tenant\nspec:\n  description: a\nspec:\n  description: b\n"))) {
      ControlPlaneException e = assertValidationFailure(parse);
      assertThat(e.fieldErrors().get(0).field()).isEqualTo("body");
      assertThat(e.fieldErrors().get(0).message()).contains("'spec' appears twice");
    }
  }

  @Test
  void contentAfterTheJsonDocumentIsRefused() {
    ControlPlaneException e = assertValidationFailure(() -> json(STREAM_JSON + " {\"spec\": {}}"));
    assertThat(e.fieldErrors().get(0).message())
        .contains("is not valid JSON")
        .contains("content after the document");
    assertValidationFailure(() -> json(STREAM_JSON + " garbage"));
  }

  @Test
  void aTrailingDocumentMarkerAddsNoDocument() {
    Resource read = codec.read(yaml(STREAM_YAML + "\n---\n"), ResourceKind.STREAM, NO_IDENTITY);
    assertEquals(EXPECTED_STREAM, read);
  }

  @Test
  void aYamlBodyWithALeadingDocumentMarkerIsOneDocument() {
    Resource read = codec.read(yaml("---\n" + STREAM_YAML), ResourceKind.STREAM, NO_IDENTITY);
    assertEquals(EXPECTED_STREAM, read);
  }

  @Test
  void jsonStreamDocumentIsReadIntoTheStreamRecord() {
    assertEquals(EXPECTED_STREAM, codec.read(json(STREAM_JSON), ResourceKind.STREAM, NO_IDENTITY));
  }

  @Test
  void yamlAndJsonOfTheSameStreamGiveEqualRecords() {
    Resource fromYaml = codec.read(yaml(STREAM_YAML), ResourceKind.STREAM, NO_IDENTITY);
    Resource fromJson = codec.read(json(STREAM_JSON), ResourceKind.STREAM, NO_IDENTITY);
    assertEquals(fromJson, fromYaml);
    assertEquals(EXPECTED_STREAM, fromYaml);
  }

  @Test
  void yamlAndJsonOfTheSameTenantGiveEqualRecords() {
    String yamlDoc =
        """
        apiVersion: controlplane/v1
        kind: Tenant
        metadata:
          name: acme
        spec:
          description: ACME Corp.
          quotas:
            max_streams: 100
            max_publish_rate: 5000
            max_storage: 1TiB
          encryption:
            key_id: kms://key/1
            rotation_period: 30d
        """;
    String jsonDoc =
        """
        {"apiVersion": "controlplane/v1", "kind": "Tenant", "metadata": {"name": "acme"},
         "spec": {"description": "ACME Corp.",
                  "quotas": {"max_streams": 100, "max_publish_rate": 5000, "max_storage": "1TiB"},
                  "encryption": {"key_id": "kms://key/1", "rotation_period": "30d"}}}
        """;
    Resource fromYaml = codec.read(yaml(yamlDoc), ResourceKind.TENANT, NO_IDENTITY);
    Resource fromJson = codec.read(json(jsonDoc), ResourceKind.TENANT, NO_IDENTITY);
    assertEquals(fromJson, fromYaml);
    assertEquals(fullTenant().withVersion(0), fromYaml);
  }

  @Test
  void streamWithOnlyShardsGetsDurableQuorumReplicationFactorOneAndNoRetention() {
    JsonNode doc =
        json(
            """
            {"apiVersion": "controlplane/v1", "kind": "Stream",
             "metadata": {"tenant": "acme", "namespace": "orders", "name": "payments"},
             "spec": {"shards": 2}}
            """);
    Stream s = (Stream) codec.read(doc, ResourceKind.STREAM, NO_IDENTITY);
    assertEquals(Durability.DURABLE, s.spec().durability());
    assertEquals(AckPolicy.QUORUM, s.spec().ackPolicy());
    assertEquals(1, s.spec().replicationFactor());
    assertEquals(2, s.spec().shards());
    assertEquals(Retention.NONE, s.spec().retention());
    assertEquals(Stream.State.ACTIVE, s.state());
    assertEquals(0, s.version());
  }

  @Test
  void tenantWithoutSpecHasEmptyDescriptionNoQuotasAndNoEncryption() {
    JsonNode doc =
        json(
            "{\"apiVersion\": \"controlplane/v1\", \"kind\": \"Tenant\", \"metadata\": {\"name\": \"acme\"}}");
    assertEquals(
        new Tenant("acme", "", Tenant.TenantQuotas.NONE, Tenant.Encryption.NONE, 0),
        codec.read(doc, ResourceKind.TENANT, NO_IDENTITY));
  }

  @Test
  void namespaceIdentityMayComeFromThePathAlone() {
    JsonNode doc =
        json(
            """
            {"apiVersion": "controlplane/v1", "kind": "Namespace",
             "spec": {"description": "d", "quotas": {"max_streams": 0}}}
            """);
    Resource read =
        codec.read(doc, ResourceKind.NAMESPACE, Map.of("tenant", "acme", "name", "orders"));
    assertEquals(
        new Namespace("acme", "orders", "d", new Namespace.NamespaceQuotas(0L, null), 0), read);
  }

  @Test
  void streamMetadataAgreeingWithThePathIsAccepted() {
    assertEquals(EXPECTED_STREAM, codec.read(json(STREAM_JSON), ResourceKind.STREAM, STREAM_PATH));
  }

  @Test
  void brokerDocumentIsReadWithItsDefaults() {
    Broker b =
        (Broker) codec.read(json(brokerDoc("10.0.0.1:9092")), ResourceKind.BROKER, NO_IDENTITY);
    assertEquals(
        new Broker(
            "b1", "10.0.0.1:9092", "", "z1", Broker.Capacity.UNLIMITED, Broker.Status.ACTIVE, 0),
        b);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "h:1",
        "broker-1.internal:9092",
        "10.0.0.1:65535",
        "[::1]:9092",
        "[fe80::1:2]:9092",
        "kafka_0:9092"
      })
  void brokerAddressInHostPortFormIsAccepted(String address) {
    Broker b = (Broker) codec.read(json(brokerDoc(address)), ResourceKind.BROKER, NO_IDENTITY);
    assertEquals(address, b.address());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "host:",
        ":9092",
        "host:port",
        "host:123456",
        "host :9092",
        "host:9092/x",
        "a:b:80",
        "::1:9092",
        "[host]:9092",
        "ho[st]:9092",
        ""
      })
  void brokerAddressNotInHostPortFormIsRejected(String address) {
    JsonNode doc = json(brokerDoc(address));
    assertThat(
            fields(
                assertValidationFailure(() -> codec.read(doc, ResourceKind.BROKER, NO_IDENTITY))))
        .containsExactly("spec.address");
  }

  @ParameterizedTest
  @ValueSource(strings = {"host:65536", "host:99999"})
  void brokerAddressWithPortAbove65535IsRejected(String address) {
    JsonNode doc = json(brokerDoc(address));
    assertThat(
            fields(
                assertValidationFailure(() -> codec.read(doc, ResourceKind.BROKER, NO_IDENTITY))))
        .containsExactly("spec.address");
  }

  @Test
  void brokerWithoutAddressIsRejected() {
    JsonNode doc =
        json(
            "{\"apiVersion\": \"controlplane/v1\", \"kind\": \"Broker\", \"metadata\": {\"name\": \"b1\"}, \"spec\": {}}");
    assertThat(
            fields(
                assertValidationFailure(() -> codec.read(doc, ResourceKind.BROKER, NO_IDENTITY))))
        .containsExactly("spec.address");
  }

  private List<String> brokerLabelErrors(String labelsJson) {
    JsonNode doc =
        json(
            "{\"apiVersion\": \"controlplane/v1\", \"kind\": \"Broker\", \"metadata\": {\"name\": \"b1\"},"
                + " \"spec\": {\"address\": \"h:1\", \"labels\": "
                + labelsJson
                + "}}");
    return fields(assertValidationFailure(() -> codec.read(doc, ResourceKind.BROKER, NO_IDENTITY)));
  }

  @Test
  void brokerLabelsOutsideTheirBoundsAreRejectedByKey() {
    assertThat(brokerLabelErrors("{\"-rack\": \"r\"}")).containsExactly("spec.labels.-rack");
    assertThat(brokerLabelErrors("{\"rack\": 7}")).containsExactly("spec.labels.rack");
    assertThat(brokerLabelErrors("{\"rack\": \"" + "x".repeat(257) + "\"}"))
        .containsExactly("spec.labels.rack");
    assertThat(brokerLabelErrors("{\"rack\": \"a\\u0007b\"}")).containsExactly("spec.labels.rack");
    assertThat(brokerLabelErrors("{\"" + "k".repeat(129) + "\": \"v\"}")).hasSize(1);
    assertThat(brokerLabelErrors("[\"rack\"]")).containsExactly("spec.labels");
    StringBuilder many = new StringBuilder("{");
    for (int i = 0; i < 33; i++) {
      many.append(i == 0 ? "" : ",").append("\"k").append(i).append("\": \"v\"");
    }
    assertThat(brokerLabelErrors(many.append("}").toString())).containsExactly("spec.labels");
  }

  @Test
  void brokerLabelsAreReadSortedByKey() {
    JsonNode doc =
        json(
            "{\"apiVersion\": \"controlplane/v1\", \"kind\": \"Broker\", \"metadata\": {\"name\": \"b1\"},"
                + " \"spec\": {\"address\": \"h:1\", \"labels\": {\"z\": \"1\", \"a\": \"\"}}}");
    Broker b = (Broker) codec.read(doc, ResourceKind.BROKER, NO_IDENTITY);
    assertThat(b.labels()).containsExactly(Map.entry("a", ""), Map.entry("z", "1"));
  }

  // ---------------------------------------------------------------- round trips

  @ParameterizedTest
  @MethodSource("resources")
  void resourceRoundTripsThroughItsDocument(Resource resource) {
    ObjectNode tree = codec.toTree(resource);
    assertEquals(resource.withVersion(0), codec.read(tree, resource.kind(), NO_IDENTITY));
  }

  @ParameterizedTest
  @MethodSource("resources")
  void resourceRoundTripsThroughWrittenYamlAndJson(Resource resource) {
    for (DocumentFormat format : DocumentFormat.values()) {
      byte[] written = codec.write(codec.toTree(resource), format);
      JsonNode parsed = codec.parse(written, format);
      assertEquals(
          resource.withVersion(0), codec.read(parsed, resource.kind(), NO_IDENTITY), format.name());
    }
  }

  @ParameterizedTest
  @MethodSource("resources")
  void storedJsonRestoresTheResourceIncludingItsVersion(Resource resource) {
    Resource restored = codec.readStored(codec.toJson(resource));
    assertEquals(resource, restored);
    assertThat(restored.version()).isPositive();
  }

  @Test
  void aStoredDocumentFromAnotherBuildIsRefusedNamingTheFieldOrKindAndTheUpgradeRule() {
    ObjectNode withNewField = codec.toTree(fullTenant());
    withNewField.with("spec").put("tier", "gold");
    assertThat(
            assertThrows(
                IllegalStateException.class, () -> codec.readStored(withNewField.toString())))
        .hasMessageContaining("the stored Tenant of version 12")
        .hasMessageContaining("spec.tier: is not a known field")
        .hasMessageContaining("every node of a cluster must run the same build");

    ObjectNode newKind = codec.toTree(fullTenant());
    newKind.put("kind", "Acl");
    assertThat(
            assertThrows(IllegalStateException.class, () -> codec.readStored(newKind.toString())))
        .hasMessageContaining("of version 12 is of kind 'Acl', which this build does not know")
        .hasMessageContaining("Upgrading to a new build");
  }

  /** Written before drain_requested existed: a draining broker was drained by the operator. */
  @Test
  void aStoredBrokerWithoutTheDrainFlagTakesItFromItsStatus() {
    for (Broker.Status status : Broker.Status.values()) {
      ObjectNode doc =
          codec.toTree(new Broker("b4", "b4:1", "r", "z", null, status, 33).withVersion(33));
      doc.with("spec").remove("drain_requested");
      Broker read = (Broker) codec.readStored(doc.toString());
      assertThat(read.status()).isEqualTo(status);
      assertThat(read.drainRequested())
          .as("%s", status)
          .isEqualTo(status == Broker.Status.DRAINING);
    }
  }

  @Test
  void documentCarriesTheVersionAsExpectedVersion() {
    ObjectNode tree = codec.toTree(fullTenant());
    assertThat(codec.expectedVersion(tree)).hasValue(12);
    assertThat(codec.expectedVersion(json(STREAM_JSON))).isEmpty();
  }

  // ---------------------------------------------------------------- names and envelope

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Bad_Name",
        "-leading-dash",
        "_leading-underscore",
        ".leading-dot",
        "has space",
        "ümlaut",
        "a234567890123456789012345678901234567890123456789012345678901234" // 64 characters
      })
  void invalidStreamNameIsReportedOnMetadataName(String name) {
    assertThat(streamErrors(doc -> metadata(doc).put("name", name)))
        .containsExactly("metadata.name");
  }

  @Test
  void sixtyThreeCharacterNameIsAccepted() {
    String name = "a".repeat(63);
    ObjectNode doc = (ObjectNode) json(STREAM_JSON);
    metadata(doc).put("name", name);
    assertEquals(name, ((Stream) codec.read(doc, ResourceKind.STREAM, NO_IDENTITY)).name());
  }

  @Test
  void invalidTenantAndNamespaceNamesInAStreamAreReportedOnTheirPaths() {
    assertThat(
            streamErrors(
                doc -> {
                  metadata(doc).put("tenant", "Acme");
                  metadata(doc).put("namespace", "-orders");
                }))
        .containsExactlyInAnyOrder("metadata.tenant", "metadata.namespace");
  }

  @Test
  void missingStreamNameIsRequired() {
    assertThat(streamErrors(doc -> metadata(doc).remove("name"))).containsExactly("metadata.name");
  }

  @Test
  void wrongApiVersionIsRejected() {
    assertThat(streamErrors(doc -> doc.put("apiVersion", "controlplane/v2")))
        .containsExactly("apiVersion");
  }

  @Test
  void missingApiVersionIsRejected() {
    assertThat(streamErrors(doc -> doc.remove("apiVersion"))).containsExactly("apiVersion");
  }

  @Test
  void wrongKindIsRejected() {
    assertThat(streamErrors(doc -> doc.put("kind", "Tenant"))).containsExactly("kind");
  }

  @Test
  void kindIsCaseSensitive() {
    assertThat(streamErrors(doc -> doc.put("kind", "stream"))).containsExactly("kind");
  }

  @Test
  void unknownTopLevelFieldIsRejected() {
    assertThat(streamErrors(doc -> doc.put("extra", 1))).containsExactly("extra");
  }

  @Test
  void unknownSpecFieldIsRejected() {
    assertThat(streamErrors(doc -> spec(doc).put("partitions", 3)))
        .containsExactly("spec.partitions");
  }

  @Test
  void unknownMetadataFieldIsRejected() {
    assertThat(streamErrors(doc -> metadata(doc).put("labels", "x")))
        .containsExactly("metadata.labels");
  }

  @Test
  void unknownRetentionFieldIsRejected() {
    assertThat(streamErrors(doc -> ((ObjectNode) spec(doc).get("retention")).put("count", 5)))
        .containsExactly("spec.retention.count");
  }

  @Test
  void unknownTenantMetadataFieldIsRejected() {
    assertThat(
            tenantErrors(
                "{\"apiVersion\": \"controlplane/v1\", \"kind\": \"Tenant\", \"metadata\": {\"name\": \"acme\", \"tenant\": \"x\"}}",
                NO_IDENTITY))
        .containsExactly("metadata.tenant");
  }

  @Test
  void metadataNameContradictingThePathIsRejected() {
    String doc =
        "{\"apiVersion\": \"controlplane/v1\", \"kind\": \"Tenant\", \"metadata\": {\"name\": \"other\"}}";
    assertThat(tenantErrors(doc, Map.of("name", "acme"))).containsExactly("metadata.name");
  }

  @Test
  void streamTenantContradictingThePathIsRejected() {
    ObjectNode doc = (ObjectNode) json(STREAM_JSON);
    metadata(doc).put("tenant", "globex");
    ControlPlaneException e =
        assertValidationFailure(() -> codec.read(doc, ResourceKind.STREAM, STREAM_PATH));
    assertThat(fields(e)).containsExactly("metadata.tenant");
  }

  // ---------------------------------------------------------------- spec fields

  @ParameterizedTest
  @ValueSource(ints = {0, -1, 1025})
  void shardsOutsideOneTo1024AreRejected(int shards) {
    assertThat(streamErrors(doc -> spec(doc).put("shards", shards))).containsExactly("spec.shards");
  }

  @Test
  void shardsBoundsAreInclusive() {
    for (int shards : new int[] {1, 1024}) {
      ObjectNode doc = (ObjectNode) json(STREAM_JSON);
      spec(doc).put("shards", shards);
      assertEquals(
          shards, ((Stream) codec.read(doc, ResourceKind.STREAM, NO_IDENTITY)).spec().shards());
    }
  }

  @Test
  void shardsGivenAsStringAreRejected() {
    assertThat(streamErrors(doc -> spec(doc).put("shards", "3"))).containsExactly("spec.shards");
  }

  @Test
  void shardsGivenAsFractionAreRejected() {
    assertThat(streamErrors(doc -> spec(doc).put("shards", 2.5))).containsExactly("spec.shards");
  }

  @Test
  void missingShardsAreRequired() {
    assertThat(streamErrors(doc -> spec(doc).remove("shards"))).containsExactly("spec.shards");
  }

  @Test
  void yamlShardsQuotedAsStringAreRejected() {
    JsonNode doc = yaml(STREAM_YAML.replace("shards: 3", "shards: \"3\""));
    assertThat(
            fields(
                assertValidationFailure(() -> codec.read(doc, ResourceKind.STREAM, NO_IDENTITY))))
        .containsExactly("spec.shards");
  }

  @Test
  void misspelledDurabilityIsRejected() {
    assertThat(streamErrors(doc -> spec(doc).put("durability", "durablee")))
        .containsExactly("spec.durability");
  }

  @Test
  void durabilityIsCaseSensitive() {
    assertThat(streamErrors(doc -> spec(doc).put("durability", "DURABLE")))
        .containsExactly("spec.durability");
  }

  @Test
  void unknownAckPolicyIsRejected() {
    assertThat(streamErrors(doc -> spec(doc).put("ack_policy", "all")))
        .containsExactly("spec.ack_policy");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 17})
  void replicationFactorOutsideOneToSixteenIsRejected(int rf) {
    assertThat(streamErrors(doc -> spec(doc).put("replication_factor", rf)))
        .containsExactly("spec.replication_factor");
  }

  @Test
  void retentionTimeInWordsIsRejected() {
    assertThat(streamErrors(doc -> ((ObjectNode) spec(doc).get("retention")).put("time", "7days")))
        .containsExactly("spec.retention.time");
  }

  @Test
  void retentionTimeAsNumberIsRejected() {
    assertThat(streamErrors(doc -> ((ObjectNode) spec(doc).get("retention")).put("time", 7)))
        .containsExactly("spec.retention.time");
  }

  @Test
  void lowerCaseRetentionSizeIsRejected() {
    assertThat(streamErrors(doc -> ((ObjectNode) spec(doc).get("retention")).put("size", "10gb")))
        .containsExactly("spec.retention.size");
  }

  @Test
  void retentionThatIsNotAnObjectIsRejected() {
    assertThat(streamErrors(doc -> spec(doc).put("retention", "7d")))
        .containsExactly("spec.retention");
  }

  @Test
  void missingStreamSpecIsRequired() {
    assertThat(streamErrors(doc -> doc.remove("spec"))).contains("spec");
  }

  @Test
  void negativeTenantMaxStreamsIsRejected() {
    String doc =
        """
        {"apiVersion": "controlplane/v1", "kind": "Tenant", "metadata": {"name": "acme"},
         "spec": {"quotas": {"max_streams": -1}}}
        """;
    assertThat(tenantErrors(doc, NO_IDENTITY)).containsExactly("spec.quotas.max_streams");
  }

  @Test
  void negativeNamespaceMaxStreamsIsRejected() {
    JsonNode doc =
        json(
            """
            {"apiVersion": "controlplane/v1", "kind": "Namespace",
             "metadata": {"tenant": "acme", "name": "orders"},
             "spec": {"quotas": {"max_streams": -1}}}
            """);
    assertThat(
            fields(
                assertValidationFailure(
                    () -> codec.read(doc, ResourceKind.NAMESPACE, NO_IDENTITY))))
        .containsExactly("spec.quotas.max_streams");
  }

  @Test
  void invalidTenantStorageAndRotationAreReportedOnTheirPaths() {
    String doc =
        """
        {"apiVersion": "controlplane/v1", "kind": "Tenant", "metadata": {"name": "acme"},
         "spec": {"quotas": {"max_storage": "1tb"}, "encryption": {"rotation_period": "monthly"}}}
        """;
    assertThat(tenantErrors(doc, NO_IDENTITY))
        .containsExactlyInAnyOrder("spec.quotas.max_storage", "spec.encryption.rotation_period");
  }

  @Test
  void descriptionLongerThan1024CharactersIsRejected() {
    String doc =
        "{\"apiVersion\": \"controlplane/v1\", \"kind\": \"Tenant\", \"metadata\": {\"name\": \"acme\"},"
            + " \"spec\": {\"description\": \""
            + "x".repeat(1025)
            + "\"}}";
    assertThat(tenantErrors(doc, NO_IDENTITY)).containsExactly("spec.description");
  }

  // ---------------------------------------------------------------- several errors at once

  @Test
  void severalErrorsAreReportedTogether() {
    List<String> errors =
        streamErrors(
            doc -> {
              doc.put("apiVersion", "v1");
              doc.put("kind", "Strem");
              doc.put("labels", "x");
              metadata(doc).put("name", "Bad_Name");
              metadata(doc).put("owner", "me");
              spec(doc).put("shards", 0);
              spec(doc).put("durability", "durablee");
              spec(doc).put("ack_policy", "all");
              spec(doc).put("replication_factor", "3");
              spec(doc).put("color", "blue");
              ((ObjectNode) spec(doc).get("retention")).put("time", "7days");
              ((ObjectNode) spec(doc).get("retention")).put("size", "10gb");
            });
    assertThat(errors)
        .containsExactlyInAnyOrder(
            "apiVersion",
            "kind",
            "labels",
            "metadata.name",
            "metadata.owner",
            "spec.shards",
            "spec.durability",
            "spec.ack_policy",
            "spec.replication_factor",
            "spec.color",
            "spec.retention.time",
            "spec.retention.size");
  }

  @Test
  void severalErrorsInATenantAreReportedTogetherWithACountInTheMessage() {
    JsonNode doc =
        json(
            """
            {"apiVersion": "controlplane/v1", "kind": "Tenant", "metadata": {"name": "x"},
             "spec": {"quotas": {"max_streams": -1, "max_publish_rate": "fast"}, "owner": "me"}}
            """);
    ControlPlaneException e =
        assertValidationFailure(() -> codec.read(doc, ResourceKind.TENANT, Map.of("name", "acme")));
    assertThat(fields(e))
        .containsExactlyInAnyOrder(
            "metadata.name",
            "spec.quotas.max_streams",
            "spec.quotas.max_publish_rate",
            "spec.owner");
    assertThat(e).hasMessageContaining("4");
  }

  // ---------------------------------------------------------------- malformed bodies

  @ParameterizedTest
  @ValueSource(strings = {"{\"apiVersion\":", "{\"a\": 1,}", "not json", "{\"a\" 1}"})
  void malformedJsonIsAValidationErrorOnBody(String body) {
    ControlPlaneException e =
        assertValidationFailure(() -> codec.parse(body.getBytes(UTF_8), DocumentFormat.JSON));
    assertThat(fields(e)).containsExactly("body");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "kind: [Tenant\n",
        "a: b: c\n",
        "metadata:\n  name: x\n name: y\n",
        "\"unterminated\n"
      })
  void malformedYamlIsAValidationErrorOnBody(String body) {
    ControlPlaneException e =
        assertValidationFailure(() -> codec.parse(body.getBytes(UTF_8), DocumentFormat.YAML));
    assertThat(fields(e)).containsExactly("body");
  }

  @Test
  void emptyJsonBodyIsAValidationErrorOnBody() {
    ControlPlaneException e =
        assertValidationFailure(() -> codec.parse(new byte[0], DocumentFormat.JSON));
    assertThat(fields(e)).containsExactly("body");
  }

  @Test
  void emptyYamlBodyIsAValidationErrorOnBody() {
    ControlPlaneException e =
        assertValidationFailure(() -> codec.parse(new byte[0], DocumentFormat.YAML));
    assertThat(fields(e)).containsExactly("body");
  }

  @Test
  void documentThatIsNotAnObjectIsAValidationErrorOnBody() {
    JsonNode doc = json("[1, 2]");
    ControlPlaneException e =
        assertValidationFailure(() -> codec.read(doc, ResourceKind.TENANT, NO_IDENTITY));
    assertThat(fields(e)).containsExactly("body");
  }

  @Test
  void metadataThatIsNotAnObjectIsRejected() {
    JsonNode doc =
        json("{\"apiVersion\": \"controlplane/v1\", \"kind\": \"Tenant\", \"metadata\": \"acme\"}");
    ControlPlaneException e =
        assertValidationFailure(() -> codec.read(doc, ResourceKind.TENANT, Map.of("name", "acme")));
    assertThat(fields(e)).containsExactly("metadata");
  }

  // ---------------------------------------------------------------- placements

  @Test
  void placementWhoseLeaderIsNotAReplicaIsRejected() {
    JsonNode doc =
        json(
            """
            {"apiVersion": "controlplane/v1", "kind": "ShardPlacement",
             "metadata": {"tenant": "acme", "namespace": "orders", "stream": "payments"},
             "spec": {"placements": [{"shard_id": 0, "leader": "b9", "replicas": ["b1", "b2"]}]}}
            """);
    assertThat(
            fields(
                assertValidationFailure(
                    () -> codec.read(doc, ResourceKind.SHARD_PLACEMENT, NO_IDENTITY))))
        .containsExactly("spec.placements[0].leader");
  }

  @Test
  void placementWithDuplicateReplicasIsRejected() {
    JsonNode doc =
        json(
            """
            {"apiVersion": "controlplane/v1", "kind": "ShardPlacement",
             "metadata": {"tenant": "acme", "namespace": "orders", "stream": "payments"},
             "spec": {"placements": [{"shard_id": 0, "leader": "b1", "replicas": ["b1", "b1"]}]}}
            """);
    assertThat(
            fields(
                assertValidationFailure(
                    () -> codec.read(doc, ResourceKind.SHARD_PLACEMENT, NO_IDENTITY))))
        .containsExactly("spec.placements[0].replicas");
  }
}

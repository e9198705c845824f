package dev.controlplane.cli.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocumentReaderTest {

  @TempDir Path dir;

  private static List<String> names(List<SourceDocument> docs) {
    return docs.stream().map(d -> d.doc().path("metadata").path("name").asText()).toList();
  }

  @Test
  void multiDocumentYamlWithEmptyDocumentsAndListsYieldsEveryObjectInOrder() {
    String yaml =
        """
        kind: Tenant
        metadata: {name: a}
        ---
        ---
        apiVersion: controlplane/v1
        kind: List
        items:
          - {kind: Namespace, metadata: {name: b, tenant: a}}
          - {kind: Namespace, metadata: {name: c, tenant: a}}
        ---
        kind: Tenant
        metadata: {name: d}
        """;
    var docs = DocumentReader.parse("f.yaml", yaml.getBytes(StandardCharsets.UTF_8), false);
    assertThat(names(docs)).containsExactly("a", "b", "c", "d");
    assertThat(docs.get(1).origin()).isEqualTo("f.yaml#3.items[0]");
  }

  @Test
  void aJsonFileMayHoldOneObjectOrAnArray() {
    var array =
        DocumentReader.parse(
            "f.json",
            "[{\"metadata\":{\"name\":\"x\"}},{\"metadata\":{\"name\":\"y\"}}]"
                .getBytes(StandardCharsets.UTF_8),
            true);
    assertThat(names(array)).containsExactly("x", "y");
    var one =
        DocumentReader.parse(
            "g.json", "{\"metadata\":{\"name\":\"z\"}}".getBytes(StandardCharsets.UTF_8), true);
    assertThat(names(one)).containsExactly("z");
  }

  @Test
  void aDirectoryIsReadInNameOrderManifestsOnlyAndSubdirectoriesOnlyWhenRecursive()
      throws Exception {
    Files.writeString(dir.resolve("b.yaml"), "metadata: {name: b}\n");
    Files.writeString(dir.resolve("a.json"), "{\"metadata\": {\"name\": \"a\"}}");
    Files.writeString(dir.resolve("notes.txt"), "not a manifest");
    Files.createDirectories(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub/c.yml"), "metadata: {name: c}\n");
    DocumentReader reader = new DocumentReader(noInput());
    assertThat(names(reader.read(List.of(dir.toString()), false))).containsExactly("a", "b");
    assertThat(names(reader.read(List.of(dir.toString()), true))).containsExactly("a", "b", "c");
  }

  @Test
  void standardInputIsReadForADash() {
    DocumentReader reader =
        new DocumentReader(
            new ByteArrayInputStream(
                "metadata: {name: s}\n---\nmetadata: {name: t}\n"
                    .getBytes(StandardCharsets.UTF_8)));
    assertThat(names(reader.read(List.of("-"), false))).containsExactly("s", "t");
  }

  @Test
  void aFileThatDoesNotParseIsAUsageErrorNamingTheFileAndDocument() {
    String yaml = "kind: Tenant\n---\nkind: [unclosed\n";
    assertThatThrownBy(
            () -> DocumentReader.parse("bad.yaml", yaml.getBytes(StandardCharsets.UTF_8), false))
        .isInstanceOfSatisfying(
            CliException.class,
            e -> {
              assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
              assertThat(e.getMessage()).startsWith("bad.yaml: document 2 does not parse");
            });
    assertThatThrownBy(
            () ->
                new DocumentReader(noInput())
                    .read(List.of(dir.resolve("missing.yaml").toString()), false))
        .hasMessageContaining("no such file");
  }

  @Test
  void aKeyWrittenTwiceIsAUsageErrorInYamlAndJsonNotALastValueKept() {
    String yaml = "kind: Tenant\nmetadata: {name: a}\nspec: {description: one}\nspec: {}\n";
    assertThatThrownBy(
            () -> DocumentReader.parse("twice.yaml", yaml.getBytes(StandardCharsets.UTF_8), false))
        .isInstanceOfSatisfying(
            CliException.class,
            e -> {
              assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
              assertThat(e.getMessage())
                  .startsWith("twice.yaml: document 1 does not parse")
                  .contains("'spec'");
            });
    String json = "{\"kind\": \"Tenant\", \"kind\": \"Namespace\"}";
    assertThatThrownBy(
            () -> DocumentReader.parse("twice.json", json.getBytes(StandardCharsets.UTF_8), true))
        .hasMessageContaining("'kind'");
  }

  private static java.io.InputStream noInput() {
    return java.io.InputStream.nullInputStream();
  }
}

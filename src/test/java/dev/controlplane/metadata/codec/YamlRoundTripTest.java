package dev.controlplane.metadata.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A document answered as YAML can be sent back as it is: strings that look like numbers, booleans,
 * null or timestamps were written plain ({@code key_id: 12345}) and read back as those, so the PUT
 * of what a GET answered failed with "must be a string".
 */
class YamlRoundTripTest {

  private static final List<String> LOOK_ALIKES =
      List.of(
          "12345",
          "0755",
          "1.5",
          "0x1F",
          "0o17",
          "0b101",
          "1e3",
          "1_000",
          ".5",
          "+1",
          "-1",
          "1:20",
          ".inf",
          "-.inf",
          ".NaN",
          "true",
          "False",
          "yes",
          "No",
          "on",
          "OFF",
          "y",
          "n",
          "null",
          "~",
          "",
          "2001-12-14",
          "2001-12-14t21:59:43.10-05:00",
          "<<",
          "=");

  private final ResourceCodec codec = new ResourceCodec();

  @Test
  void everyStringThatLooksLikeAnotherTypeComesBackAsTheSameString() {
    for (String value : LOOK_ALIKES) {
      byte[] yaml = codec.write(document(value, value), DocumentFormat.YAML);
      JsonNode back = codec.parse(yaml, DocumentFormat.YAML);
      String text = new String(yaml, StandardCharsets.UTF_8);
      assertThat(back.path("spec").path("labels").path(value).isTextual()).as(text).isTrue();
      assertThat(back.path("spec").path("labels").path(value).asText()).as(text).isEqualTo(value);
      assertThat(back.path("spec").path("description").isTextual()).as(text).isTrue();
      assertThat(back.path("spec").path("description").asText()).as(text).isEqualTo(value);
    }
  }

  /** SnakeYAML reads YAML 1.1, the widest implicit typing of the common tools (PyYAML's too). */
  @Test
  void aYaml11ReaderAlsoReadsThemAsStrings() {
    Yaml reader = new Yaml(new SafeConstructor(new LoaderOptions()));
    for (String value : LOOK_ALIKES) {
      String text =
          new String(
              codec.write(document(value, value), DocumentFormat.YAML), StandardCharsets.UTF_8);
      Map<?, ?> spec = (Map<?, ?>) ((Map<?, ?>) reader.load(text)).get("spec");
      assertThat(spec.get("description")).as(text).isEqualTo(value);
      assertThat(((Map<?, ?>) spec.get("labels")).get(value)).as(text).isEqualTo(value);
    }
  }

  @Test
  void ordinaryStringsStayUnquoted() {
    String text =
        new String(
            codec.write(document("acme-eu", "Acme Corp payments"), DocumentFormat.YAML),
            StandardCharsets.UTF_8);
    assertThat(text).contains("description: Acme Corp payments").contains("acme-eu: acme-eu");
  }

  private ObjectNode document(String label, String description) {
    ObjectNode doc = codec.newObject();
    doc.put("apiVersion", ResourceCodec.API_VERSION).put("kind", "Tenant");
    doc.putObject("metadata").put("name", "t1");
    ObjectNode spec = doc.putObject("spec");
    spec.put("description", description);
    spec.putObject("labels").put(label, label);
    return doc;
  }
}

package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.SharedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /openapi serves openapi/controlplane.yaml exactly, as YAML or JSON by Accept. */
class OpenApiDocumentIT {

  private static final Path FILE = Path.of("openapi", "controlplane.yaml");

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  private final Http anonymous = new Http(SharedServer.httpPort(), null);

  @Test
  void yamlIsTheRepositoryFileByteForByte() throws Exception {
    for (String accept : new String[] {"application/yaml", "*/*"}) {
      var reply = anonymous.get("/openapi", accept);
      assertThat(reply.status()).isEqualTo(200);
      assertThat(reply.contentType()).startsWith("application/yaml");
      assertThat(reply.body()).as(accept).isEqualTo(Files.readString(FILE));
    }
    assertThat(anonymous.get("/openapi?format=yaml", "application/json").body())
        .isEqualTo(Files.readString(FILE));
  }

  @Test
  void jsonIsTheSameDocumentKeepingWhatA30ConversionDropped() throws Exception {
    var reply = anonymous.get("/openapi", "application/json");
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.contentType()).startsWith("application/json");
    var file = new ObjectMapper(new YAMLFactory()).readTree(FILE.toFile());
    assertThat(reply.json()).isEqualTo(file);
    assertThat(reply.json().path("openapi").asText()).isEqualTo("3.1.0");
    assertThat(reply.body()).contains("\"const\"").contains("\"examples\"");
    assertThat(anonymous.get("/openapi?format=json", "application/yaml").json()).isEqualTo(file);
  }

  @Test
  void anAcceptWithoutYamlOrJsonIs406ProblemJson() {
    var reply = anonymous.get("/openapi", "text/html");
    assertThat(reply.status()).isEqualTo(406);
    assertThat(reply.contentType()).startsWith("application/problem+json");
  }
}

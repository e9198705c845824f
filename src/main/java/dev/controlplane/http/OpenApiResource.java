package dev.controlplane.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code /openapi}: the repository's openapi/controlplane.yaml (packaged as META-INF/openapi.yaml),
 * byte for byte as YAML, or the same document as JSON. Served by the application rather than
 * Liberty's mpOpenAPI feature, which re-serialises a 3.1 document through its 3.0 model and loses
 * {@code const}, examples and nullable types.
 */
@Path("/openapi")
@ApplicationScoped
public class OpenApiResource {

  static final String YAML = "application/yaml";
  private static final String FILE = "META-INF/openapi.yaml";

  private final byte[] yaml = read();
  private final byte[] json = toJson(yaml);

  /**
   * YAML unless {@code Accept} prefers JSON, as MicroProfile OpenAPI does; {@code ?format=json} or
   * {@code ?format=yaml} (MicroProfile's parameter) wins over Accept.
   */
  @GET
  @Produces({YAML, MediaType.APPLICATION_JSON, "application/x-yaml", "text/yaml"})
  public Response document(@QueryParam("format") String format, @Context HttpHeaders headers) {
    boolean asJson = format != null ? format.equalsIgnoreCase("json") : prefersJson(headers);
    return Response.ok(asJson ? json : yaml, asJson ? MediaType.APPLICATION_JSON : YAML)
        .header("Vary", "Accept")
        .build();
  }

  private static boolean prefersJson(HttpHeaders headers) {
    for (MediaType accepted : headers.getAcceptableMediaTypes()) {
      if (accepted.getSubtype().endsWith("yaml") || accepted.isWildcardSubtype()) {
        return false;
      }
      if (accepted.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
        return true;
      }
    }
    return false;
  }

  private static byte[] read() {
    try (InputStream in = OpenApiResource.class.getClassLoader().getResourceAsStream(FILE)) {
      if (in == null) {
        throw new IllegalStateException(FILE + " is missing from the application");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] toJson(byte[] yaml) {
    try {
      return new ObjectMapper()
          .writerWithDefaultPrettyPrinter()
          .writeValueAsBytes(new ObjectMapper(new YAMLFactory()).readTree(yaml));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

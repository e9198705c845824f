package dev.controlplane.http;

import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which representations the resource at a path offers, for the words of a 406 or a 415. The
 * framework refuses those before any resource method is chosen, so the answer is read from the
 * resources' own {@code @Path} and {@code @Produces}: a client that asked an audit page for YAML
 * was told to "use application/json or application/yaml", and sent YAML again.
 */
final class OfferedRepresentations {

  static final String JSON_OR_YAML = "application/json or application/yaml";
  static final String JSON_ONLY = "application/json";

  /** Every resource class of the API; a test checks that none is missing. */
  static final List<Class<?>> RESOURCES =
      List.of(
          AuditResource.class,
          BridgeResource.class,
          BrokerResource.class,
          ClusterNodeResource.class,
          IssuerResource.class,
          JwksResource.class,
          NamespaceResource.class,
          OpenApiResource.class,
          PlatformAuditResource.class,
          RbacResource.class,
          SigningKeyResource.class,
          StreamResource.class,
          TenantResource.class,
          TokenResource.class);

  private record Family(Pattern path, int literals, boolean yaml) {}

  private static final List<Family> FAMILIES =
      RESOURCES.stream()
          .map(OfferedRepresentations::family)
          .sorted(Comparator.comparingInt(Family::literals).reversed())
          .toList();

  private OfferedRepresentations() {}

  /**
   * The media types the resource at {@code path} reads and writes: JSON and YAML for the metadata
   * documents, JSON alone for the rest (audit, issuers, RBAC, keys, the exchange, JWKS).
   */
  static String at(String path) {
    String absolute = path == null ? "" : path.startsWith("/") ? path : "/" + path;
    return FAMILIES.stream()
        .filter(f -> f.path().matcher(absolute).matches())
        .findFirst()
        .map(f -> f.yaml() ? JSON_OR_YAML : JSON_ONLY)
        .orElse(JSON_OR_YAML);
  }

  private static Family family(Class<?> resource) {
    String template = resource.getAnnotation(Path.class).value();
    StringBuilder regex = new StringBuilder();
    int literals = 0;
    String[] parts = template.split("\\{[^}]*}", -1);
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        regex.append("[^/]+");
      }
      regex.append(Pattern.quote(parts[i]));
      literals += parts[i].length();
    }
    regex.append("(/.*)?");
    boolean yaml =
        Optional.ofNullable(resource.getAnnotation(Produces.class)).stream()
            .flatMap(p -> Arrays.stream(p.value()))
            .anyMatch(type -> type.contains("yaml"));
    return new Family(Pattern.compile(regex.toString()), literals, yaml);
  }
}

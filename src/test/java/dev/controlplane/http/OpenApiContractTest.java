package dev.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.io.File;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** openapi/controlplane.yaml describes exactly the operations the JAX-RS resources serve. */
class OpenApiContractTest {

  private static final List<Class<?>> RESOURCES =
      List.of(
          TenantResource.class,
          NamespaceResource.class,
          StreamResource.class,
          BrokerResource.class,
          BridgeResource.class,
          TokenResource.class,
          JwksResource.class,
          IssuerResource.class,
          RbacResource.class,
          SigningKeyResource.class,
          ClusterNodeResource.class,
          AuditResource.class,
          PlatformAuditResource.class,
          OpenApiResource.class);

  @Test
  void everyServedOperationIsDescribedAndNothingElse() throws Exception {
    JsonNode spec =
        new ObjectMapper(new YAMLFactory()).readTree(new File("openapi/controlplane.yaml"));
    Set<String> described = new TreeSet<>();
    spec.path("paths")
        .fields()
        .forEachRemaining(
            path -> {
              if (!path.getKey().startsWith("/health/")
                  && !path.getKey().startsWith("/internal/")) {
                for (String method : List.of("get", "put", "post", "delete")) {
                  if (path.getValue().has(method)) {
                    described.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
                  }
                }
              }
            });
    Set<String> served = new TreeSet<>();
    for (Class<?> resource : RESOURCES) {
      String base = resource.getAnnotation(Path.class).value();
      for (Method m : resource.getDeclaredMethods()) {
        String verb = verb(m);
        if (verb != null) {
          Path sub = m.getAnnotation(Path.class);
          String path =
              (base + (sub == null ? "" : sub.value()))
                  .replaceAll("\\{(\\w+):[^}]*}", "{$1}")
                  .replace("//", "/");
          served.add(verb + " " + path);
        }
      }
    }
    assertThat(described).isEqualTo(served);
  }

  private static String verb(Method m) {
    if (m.isAnnotationPresent(GET.class)) {
      return "GET";
    }
    if (m.isAnnotationPresent(PUT.class)) {
      return "PUT";
    }
    if (m.isAnnotationPresent(POST.class)) {
      return "POST";
    }
    return m.isAnnotationPresent(DELETE.class) ? "DELETE" : null;
  }
}

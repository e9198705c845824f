package dev.controlplane.it.support;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.KeyProvider;

/**
 * Real OIDC providers (mock-oauth2-server over HTTP) that sign with one given algorithm each:
 * RS256, RS384, RS512, PS256, PS384, PS512 or ES256, with keys they generate and publish
 * themselves.
 */
public final class AlgorithmProviders {

  private static final Map<String, MockOAuth2Server> SERVERS = new ConcurrentHashMap<>();

  private AlgorithmProviders() {}

  public static MockOAuth2Server server(String algorithm) {
    return SERVERS.computeIfAbsent(
        algorithm, alg -> OidcProvider.start(new KeyProvider(List.of(), alg)));
  }

  public static String issuer(String algorithm, String id) {
    return server(algorithm).issuerUrl(id).toString();
  }

  /** A token as the provider issues it, signed with {@code algorithm}. */
  public static String token(String algorithm, String id, String subject) {
    return OidcProvider.token(server(algorithm), id, subject, Map.of());
  }

  /** An issuer record for the provider's issuer {@code id}, found through discovery. */
  public static ObjectNode issuerRecord(String algorithm, String id) {
    // Let the provider make its key now, not inside the control plane's fetch deadline.
    token(algorithm, id, "warm-up");
    return OidcProvider.issuerRecord(server(algorithm), id);
  }
}

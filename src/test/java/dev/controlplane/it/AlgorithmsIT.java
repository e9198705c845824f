package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.it.support.AlgorithmProviders;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.KeyServer;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAKeyGenParameterSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every upstream algorithm the spec allows (RS256, RS384, RS512, PS256, PS384, PS512, ES256) is
 * exchanged when SERVICE_CONTROLPLANE_OIDC_ALLOWED_ALGORITHMS allows it and refused when it does
 * not, with tokens from real OIDC providers that sign with it; and the key checks that need RSA or
 * a setting of their own: heavy RSA keys, low-S ES256.
 */
class AlgorithmsIT {

  private static final List<String> RSA =
      List.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512");
  private static final BigInteger P256_ORDER =
      new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);

  @BeforeAll
  static void server() throws Exception {
    SharedServer.ensureStarted();
  }

  /** Bootstraps {@code tenant} on the node at {@code bootstrapPort} trusting {@code issuer}. */
  private static void bootstrap(int bootstrapPort, String tenant, ObjectNode issuer, String admin) {
    var reply =
        Auth.bootstrap(
            bootstrapPort,
            tenant,
            List.of(issuer),
            List.of(Auth.principal(issuer.path("issuer").asText(), admin)),
            SharedServer.BOOTSTRAP_TOKEN);
    assertThat(reply.status()).as(reply.body()).isEqualTo(201);
  }

  private static String algorithmOf(String token) throws Exception {
    return SignedJWT.parse(token).getHeader().getAlgorithm().getName();
  }

  @Test
  void theDefaultServerExchangesEs256AndRefusesEveryRsaAlgorithm() throws Exception {
    int boot = SharedServer.bootstrapPort();
    int http = SharedServer.httpPort();
    for (String alg : RSA) {
      String tenant = "algs-default-" + alg.toLowerCase();
      bootstrap(boot, tenant, AlgorithmProviders.issuerRecord(alg, "default-" + alg), "alice");
      String token = AlgorithmProviders.token(alg, "default-" + alg, "alice");
      assertThat(algorithmOf(token)).isEqualTo(alg);
      var reply = Auth.exchange(http, tenant, token, "{}");
      assertThat(reply.status()).as(alg + ": " + reply.body()).isEqualTo(401);
    }
    bootstrap(
        boot,
        "algs-default-es256",
        AlgorithmProviders.issuerRecord("ES256", "default-ES256"),
        "alice");
    String es256 = AlgorithmProviders.token("ES256", "default-ES256", "alice");
    assertThat(algorithmOf(es256)).isEqualTo("ES256");
    assertThat(Auth.exchange(http, "algs-default-es256", es256, "{}").status()).isEqualTo(200);
  }

  @Test
  void aServerAllowingTheRsaAlgorithmsExchangesEachAndRefusesEs256AndHeavyKeys() throws Exception {
    try (IsolatedServer node =
        IsolatedServer.start(
            "algorithms-rsa",
            Map.of("SERVICE_CONTROLPLANE_OIDC_ALLOWED_ALGORITHMS", String.join(",", RSA)))) {
      for (String alg : RSA) {
        String tenant = "algs-" + alg.toLowerCase();
        bootstrap(
            node.bootstrapPort(),
            tenant,
            AlgorithmProviders.issuerRecord(alg, "rsa-" + alg),
            "alice");
        String token = AlgorithmProviders.token(alg, "rsa-" + alg, "alice");
        assertThat(algorithmOf(token)).isEqualTo(alg);
        var reply = Auth.exchange(node.httpPort(), tenant, token, "{}");
        assertThat(reply.status()).as(alg + ": " + reply.body()).isEqualTo(200);
      }
      bootstrap(
          node.bootstrapPort(),
          "algs-es256",
          AlgorithmProviders.issuerRecord("ES256", "rsa-ES256"),
          "alice");
      var es256 =
          Auth.exchange(
              node.httpPort(),
              "algs-es256",
              AlgorithmProviders.token("ES256", "rsa-ES256", "alice"),
              "{}");
      assertThat(es256.status()).as(es256.body()).isEqualTo(401);

      aKeyWithAHugePublicExponentIsNeverUsed(node);
    }
  }

  /**
   * The probe's heavy key: RSA with a 3071-bit public exponent makes each verification about five
   * times dearer. The key set also holds an ordinary key, which still works.
   */
  private static void aKeyWithAHugePublicExponentIsNeverUsed(IsolatedServer node) throws Exception {
    SecureRandom random = new SecureRandom();
    BigInteger hugeExponent = new BigInteger(3071, random).setBit(3070).setBit(0);
    RSAKey heavy = rsa("heavy", new RSAKeyGenParameterSpec(3072, hugeExponent));
    RSAKey normal = rsa("normal", new RSAKeyGenParameterSpec(3072, RSAKeyGenParameterSpec.F4));
    try (KeyServer keys = new KeyServer(List.of(heavy, normal))) {
      String base = keys.base();
      ObjectNode issuer =
          Http.JSON
              .createObjectNode()
              .put("issuer", base + "/heavy")
              .put("jwks_url", keys.jwksUrl());
      issuer.putArray("audiences").add(OidcProvider.AUDIENCE);
      bootstrap(node.bootstrapPort(), "algs-heavy", issuer, "alice");
      var claims = OidcProvider.claims("unused", "alice").issuer(base + "/heavy").build();
      SignedJWT byHeavy =
          new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("heavy").build(), claims);
      byHeavy.sign(new RSASSASigner(heavy));
      SignedJWT byNormal =
          new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("normal").build(), claims);
      byNormal.sign(new RSASSASigner(normal));
      assertThat(Auth.exchange(node.httpPort(), "algs-heavy", byHeavy.serialize(), "{}").status())
          .isEqualTo(401);
      var ok = Auth.exchange(node.httpPort(), "algs-heavy", byNormal.serialize(), "{}");
      assertThat(ok.status()).as(ok.body()).isEqualTo(200);
    }
  }

  private static RSAKey rsa(String kid, RSAKeyGenParameterSpec spec) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(spec);
    KeyPair pair = generator.generateKeyPair();
    return new RSAKey.Builder((RSAPublicKey) pair.getPublic())
        .privateKey((RSAPrivateKey) pair.getPrivate())
        .keyID(kid)
        .build();
  }

  /**
   * An ECDSA signature (r, s) has a twin (r, n - s) that verifies too. JCA signers (Keycloak's, the
   * test provider's) produce a high S about half the time, so low S is a setting: with it on, the
   * twin of an accepted token is refused; without it (the default) JWS accepts both.
   */
  @Test
  void withLowSRequiredTheHighSTwinOfAnAcceptedTokenIsRefused() throws Exception {
    ObjectNode issuer = AlgorithmProviders.issuerRecord("ES256", "low-s");
    String low = lowSToken("low-s");
    String twin = twin(low);
    bootstrap(SharedServer.bootstrapPort(), "algs-twin-default", issuer, "alice");
    assertThat(Auth.exchange(SharedServer.httpPort(), "algs-twin-default", twin, "{}").status())
        .as("the default accepts both encodings, as JWS does")
        .isEqualTo(200);
    try (IsolatedServer node =
        IsolatedServer.start(
            "algorithms-low-s", Map.of("SERVICE_CONTROLPLANE_OIDC_REQUIRE_LOW_S", "true"))) {
      bootstrap(node.bootstrapPort(), "algs-low-s", issuer, "alice");
      assertThat(Auth.exchange(node.httpPort(), "algs-low-s", low, "{}").status()).isEqualTo(200);
      var refused = Auth.exchange(node.httpPort(), "algs-low-s", twin, "{}");
      assertThat(refused.status()).isEqualTo(401);
      assertThat(refused.json().path("detail").asText())
          .isEqualTo("the token is not valid for this tenant");
    }
  }

  /** A token of the provider whose signature has a low S (the provider signs until one does). */
  private static String lowSToken(String id) {
    for (int i = 0; i < 100; i++) {
      String token = AlgorithmProviders.token("ES256", id, "alice");
      if (s(token).compareTo(P256_ORDER.shiftRight(1)) <= 0) {
        return token;
      }
    }
    throw new AssertionError("no low-S signature in 100 tokens");
  }

  private static BigInteger s(String token) {
    byte[] sig = Base64URL.from(token.split("\\.")[2]).decode();
    return new BigInteger(1, Arrays.copyOfRange(sig, 32, 64));
  }

  private static String twin(String token) {
    String[] p = token.split("\\.");
    byte[] sig = Base64URL.from(p[2]).decode();
    byte[] other = P256_ORDER.subtract(s(token)).toByteArray();
    byte[] out = Arrays.copyOf(sig, 64);
    Arrays.fill(out, 32, 64, (byte) 0);
    int len = Math.min(32, other.length);
    System.arraycopy(other, other.length - len, out, 64 - len, len);
    return p[0] + "." + p[1] + "." + Base64URL.encode(out);
  }
}

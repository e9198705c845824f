package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.EncryptionMethod;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEHeader;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.DirectEncrypter;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.util.Base64;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.KeyServer;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tokens from RFC 8725 and the OWASP JWT testing guide, each refused with 401 and no service token,
 * against the real server and a real OIDC provider. A valid token passes, to show that each refusal
 * is due to what the case changes.
 */
class HostileTokenIT {

  private static final String TENANT = "hostile";
  private static final String IDP = "idp-hostile";
  private static final String OTHER_IDP = "idp-hostile-other";
  private static final BigInteger P256_ORDER =
      new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);

  @BeforeAll
  static void setUp() throws Exception {
    SharedServer.ensureStarted();
    Auth.bootstrap(TENANT, IDP, null, "mallory");
    Auth.bootstrap("hostile-other", OTHER_IDP, null, "mallory");
  }

  private static JWTClaimsSet.Builder claims() {
    return OidcProvider.claims(IDP, "mallory");
  }

  private static String valid() {
    return OidcProvider.sign(IDP, OidcProvider.es256(IDP), claims().build());
  }

  private static ECKey attackerKey(String kid) {
    try {
      return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String unsigned(String alg) {
    String header = Base64URL.encode("{\"alg\":\"" + alg + "\",\"typ\":\"JWT\"}").toString();
    return header + "." + Base64URL.encode(claims().build().toString()) + ".";
  }

  private static String hs256(byte[] secret) {
    try {
      JWSObject jws =
          new JWSObject(
              new JWSHeader.Builder(JWSAlgorithm.HS256)
                  .keyID(OidcProvider.key(IDP).getKeyID())
                  .build(),
              new Payload(claims().build().toJSONObject()));
      jws.sign(new MACSigner(padded(secret)));
      return jws.serialize();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] padded(byte[] secret) {
    return secret.length >= 32 ? secret : java.util.Arrays.copyOf(secret, 32);
  }

  private static String withSignature(byte[] signature) {
    String[] parts = valid().split("\\.");
    return parts[0] + "." + parts[1] + "." + Base64URL.encode(signature);
  }

  private static byte[] rs(BigInteger r, BigInteger s) {
    byte[] out = new byte[64];
    byte[] rb = r.toByteArray();
    byte[] sb = s.toByteArray();
    System.arraycopy(
        rb,
        Math.max(0, rb.length - 32),
        out,
        32 - Math.min(32, rb.length),
        Math.min(32, rb.length));
    System.arraycopy(
        sb,
        Math.max(0, sb.length - 32),
        out,
        64 - Math.min(32, sb.length),
        Math.min(32, sb.length));
    return out;
  }

  private static String withHeader(JWSHeader.Builder header) {
    return OidcProvider.sign(IDP, header, claims().build());
  }

  private static String withClaims(JWTClaimsSet claims) {
    return OidcProvider.sign(IDP, OidcProvider.es256(IDP), claims);
  }

  private static Date secondsFromNow(long s) {
    return new Date(System.currentTimeMillis() + s * 1000);
  }

  static Stream<Arguments> hostileTokens() {
    List<Arguments> cases = new ArrayList<>();
    add(cases, "alg none", () -> unsigned("none"));
    add(cases, "alg None", () -> unsigned("None"));
    add(cases, "alg NONE", () -> unsigned("NONE"));
    add(cases, "alg nOnE", () -> unsigned("nOnE"));
    add(
        cases,
        "alg none with the original signature kept",
        () -> unsigned("none") + valid().split("\\.")[2]);
    add(
        cases,
        "HS256 keyed with the issuer's public JWK",
        () ->
            hs256(
                OidcProvider.key(IDP)
                    .toPublicJWK()
                    .toJSONString()
                    .getBytes(StandardCharsets.UTF_8)));
    add(
        cases,
        "HS256 keyed with the issuer's public key bytes",
        () -> {
          try {
            return hs256(OidcProvider.key(IDP).toECPublicKey().getEncoded());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    add(cases, "all-zero ECDSA signature", () -> withSignature(new byte[64]));
    add(cases, "ECDSA signature r = s = n", () -> withSignature(rs(P256_ORDER, P256_ORDER)));
    add(
        cases,
        "ECDSA signature r = s = 1",
        () -> withSignature(rs(BigInteger.ONE, BigInteger.ONE)));
    add(
        cases,
        "DER-encoded signature",
        () -> withSignature(new byte[] {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01}));
    add(cases, "signature stripped", () -> valid().substring(0, valid().lastIndexOf('.') + 1));
    add(
        cases,
        "tampered payload",
        () -> {
          String[] parts = valid().split("\\.");
          return parts[0]
              + "."
              + Base64URL.encode(claims().subject("alice").build().toString())
              + "."
              + parts[2];
        });
    add(
        cases,
        "signed by an attacker key under the issuer's kid",
        () ->
            OidcProvider.sign(
                attackerKey(OidcProvider.key(IDP).getKeyID()),
                OidcProvider.es256(IDP),
                claims().build()));
    add(
        cases,
        "embedded jwk header",
        () -> {
          ECKey attacker = attackerKey("evil");
          return OidcProvider.sign(
              attacker,
              new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("evil").jwk(attacker.toPublicJWK()),
              claims().build());
        });
    add(
        cases,
        "jku header",
        () ->
            OidcProvider.sign(
                attackerKey("evil"),
                new JWSHeader.Builder(JWSAlgorithm.ES256)
                    .keyID("evil")
                    .jwkURL(URI.create("http://127.0.0.1:1/jwks")),
                claims().build()));
    add(
        cases,
        "x5u header",
        () ->
            OidcProvider.sign(
                attackerKey("evil"),
                new JWSHeader.Builder(JWSAlgorithm.ES256)
                    .keyID("evil")
                    .x509CertURL(URI.create("http://127.0.0.1:1/cert")),
                claims().build()));
    add(
        cases,
        "x5c header on a validly signed token",
        () ->
            withHeader(
                OidcProvider.es256(IDP)
                    .x509CertChain(List.of(Base64.encode("not a certificate")))));
    add(
        cases,
        "kid path traversal",
        () ->
            OidcProvider.sign(
                attackerKey("../../../../dev/null"),
                new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("../../../../dev/null"),
                claims().build()));
    add(
        cases,
        "kid SQL injection",
        () ->
            OidcProvider.sign(
                attackerKey("x' OR '1'='1"),
                new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("x' OR '1'='1"),
                claims().build()));
    add(
        cases,
        "crit header on a validly signed token",
        () ->
            withHeader(
                OidcProvider.es256(IDP).criticalParams(Set.of("exp")).customParam("exp", 1)));
    add(
        cases,
        "nested token (cty JWT)",
        () -> withHeader(OidcProvider.es256(IDP).contentType("JWT")));
    add(cases, "RS256 header over an ES256 key", () -> unsignedWithAlgAndValidSignature("RS256"));
    add(
        cases,
        "expired",
        () ->
            withClaims(
                claims()
                    .expirationTime(secondsFromNow(-3600))
                    .issueTime(secondsFromNow(-7200))
                    .build()));
    add(cases, "no exp", () -> withClaims(claims().expirationTime(null).build()));
    add(
        cases,
        "iat in the future",
        () -> withClaims(claims().issueTime(secondsFromNow(3600)).build()));
    add(
        cases,
        "nbf in the future",
        () -> withClaims(claims().notBeforeTime(secondsFromNow(3600)).build()));
    add(cases, "wrong iss", () -> withClaims(claims().issuer("http://127.0.0.1:1/evil").build()));
    add(cases, "wrong aud", () -> withClaims(claims().audience("someone-else").build()));
    add(cases, "no aud", () -> withClaims(claims().audience((String) null).build()));
    add(
        cases,
        "issuer of another tenant",
        () ->
            OidcProvider.sign(
                OTHER_IDP,
                OidcProvider.es256(OTHER_IDP),
                OidcProvider.claims(OTHER_IDP, "mallory").build()));
    add(
        cases,
        "oversized token",
        () -> withClaims(claims().claim("pad", "x".repeat(20_000)).build()));
    add(cases, "JWE", HostileTokenIT::jwe);
    add(
        cases,
        "JSON serialization",
        () -> {
          String[] p = valid().split("\\.");
          return "{\"payload\":\""
              + p[1]
              + "\",\"signatures\":[{\"protected\":\""
              + p[0]
              + "\",\"signature\":\""
              + p[2]
              + "\"}]}";
        });
    add(cases, "garbage", () -> "not.a.jwt");
    add(cases, "== padding on the signature", () -> valid() + "==");
    add(
        cases,
        "= padding on the header",
        () -> {
          String[] p = valid().split("\\.");
          return p[0] + "=." + p[1] + "." + p[2];
        });
    add(cases, "standard base64 alphabet in the signature", HostileTokenIT::standardAlphabet);
    add(
        cases,
        "a space inside the signature",
        () -> {
          String t = valid();
          return t.substring(0, t.length() - 10) + " " + t.substring(t.length() - 10);
        });
    add(
        cases,
        "stray bits in the signature's last character",
        () -> {
          String t = valid();
          char last = t.charAt(t.length() - 1);
          return t.substring(0, t.length() - 1) + (char) (last + 1);
        });
    add(cases, "a 65-byte ES256 signature", () -> withSignature(new byte[65]));
    return cases.stream();
  }

  /** The valid token with its signature in the standard alphabet ({@code +/} for {@code -_}). */
  private static String standardAlphabet() {
    for (int i = 0; i < 50; i++) {
      String[] p = valid().split("\\.");
      if (p[2].contains("-") || p[2].contains("_")) {
        return p[0] + "." + p[1] + "." + p[2].replace('-', '+').replace('_', '/');
      }
    }
    throw new AssertionError("no signature with - or _ in 50 tries");
  }

  private static String unsignedWithAlgAndValidSignature(String alg) {
    String[] parts = valid().split("\\.");
    return Base64URL.encode(
            "{\"alg\":\"" + alg + "\",\"kid\":\"" + OidcProvider.key(IDP).getKeyID() + "\"}")
        + "."
        + parts[1]
        + "."
        + parts[2];
  }

  private static String jwe() {
    try {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      EncryptedJWT jwt =
          new EncryptedJWT(
              new JWEHeader(JWEAlgorithm.DIR, EncryptionMethod.A256GCM), claims().build());
      jwt.encrypt(new DirectEncrypter(key));
      return jwt.serialize();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void add(List<Arguments> cases, String name, Supplier<String> token) {
    cases.add(Arguments.of(name, token));
  }

  @Test
  void theUnalteredTokenIsAccepted() {
    var reply = Auth.exchange(TENANT, valid(), "{}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostileTokens")
  void isRefusedWith401AndNoToken(String name, Supplier<String> token) {
    var reply = Auth.exchange(TENANT, token.get(), "{}");
    assertThat(reply.status()).as(name + ": " + reply.body()).isEqualTo(401);
    assertThat(reply.body()).doesNotContain("service_token");
    assertThat(reply.json().path("code").asText()).isEqualTo("invalid_token");
    assertThat(reply.json().path("detail").asText())
        .as("one detail for every refusal; the reason is only logged")
        .isEqualTo(TrustBoundaryIT.REFUSED);
    assertThat(reply.raw().headers().firstValue("WWW-Authenticate"))
        .hasValue("Bearer error=\"invalid_token\"");
  }

  @Test
  void aFloodOfUnknownKidsCausesAtMostOneKeyFetchPerRefreshWindow() throws Exception {
    ECKey key = attackerKey("flood-key");
    try (KeyServer jwks = new KeyServer(List.of(key))) {
      String issuer = jwks.base() + "/flood";
      var record =
          Http.JSON.createObjectNode().put("issuer", issuer).put("jwks_url", jwks.jwksUrl());
      record.putArray("audiences").add("controlplane");
      var created =
          Auth.bootstrap(
              "flood",
              List.of(record),
              List.of(Auth.principal(issuer, "mallory")),
              SharedServer.BOOTSTRAP_TOKEN);
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      JWTClaimsSet claims = OidcProvider.claims(IDP, "mallory").issuer(issuer).build();
      assertThat(
              Auth.exchange(
                      "flood",
                      OidcProvider.sign(
                          key,
                          new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("flood-key"),
                          claims),
                      "{}")
                  .status())
          .isEqualTo(200);
      int before = jwks.fetches();
      List<CompletableFuture<Integer>> flood = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        String kid = "unknown-" + i;
        flood.add(
            CompletableFuture.supplyAsync(
                () ->
                    Auth.exchange(
                            "flood",
                            OidcProvider.sign(
                                attackerKey(kid),
                                new JWSHeader.Builder(JWSAlgorithm.ES256)
                                    .keyID(kid)
                                    .type(JOSEObjectType.JWT),
                                claims),
                            "{}")
                        .status()));
      }
      for (var f : flood) {
        assertThat(f.get()).isEqualTo(401);
      }
      assertThat(before).isEqualTo(1);
      assertThat(jwks.fetches() - before)
          .as("key fetches caused by 60 unknown kids")
          .isLessThanOrEqualTo(1);
    }
  }
}

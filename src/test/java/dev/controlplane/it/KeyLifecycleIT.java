package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A signing key's whole life, which the shared server's 15-minute token lifetime and 30-day
 * rotation period put out of reach: a node of its own with 3-second service tokens and a 6-second
 * rotation period. With no admin call, the next key must be published before it signs, and the
 * rotated-out key must keep verifying its tokens until they expire, then leave the JWKS. A tenant
 * created through the API has a key from the start, and one left without keys gets one.
 */
class KeyLifecycleIT {

  private static final Duration TOKEN_TTL = Duration.ofSeconds(3);
  private static final Duration SKEW = Duration.ofSeconds(1);
  private static final Duration ROTATION_PERIOD = Duration.ofSeconds(6);

  @Test
  void keysRotateOnTheirPeriodRetireAfterTheirLastTokenAndNoTenantStaysWithoutOne()
      throws Exception {
    String db = IsolatedServer.database("keys");
    Map<String, String> settings =
        Map.of(
            "SERVICE_CONTROLPLANE_TOKEN_TTL", TOKEN_TTL.toSeconds() + "s",
            "SERVICE_CONTROLPLANE_OIDC_CLOCK_SKEW", SKEW.toSeconds() + "s",
            "SERVICE_CONTROLPLANE_JWKS_MAX_AGE", "1s",
            "SERVICE_CONTROLPLANE_KEY_ROTATION_CHECK_INTERVAL", "250ms",
            "SERVICE_CONTROLPLANE_KEY_ROTATION_PERIOD", ROTATION_PERIOD.toSeconds() + "s");
    try (IsolatedServer node = IsolatedServer.start("key-lifecycle", "keys", settings)) {
      int http = node.httpPort();
      int bootstrap = node.bootstrapPort();
      var created =
          Auth.bootstrap(
              bootstrap,
              "keys",
              List.of(Auth.issuerRecord("idp-keys", null)),
              List.of(Auth.principal(OidcProvider.issuer("idp-keys"), "alice")),
              SharedServer.BOOTSTRAP_TOKEN);
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      Supplier<String> exchange =
          () -> {
            var reply =
                Auth.exchange(
                    http, "keys", OidcProvider.token("idp-keys", "alice", Map.of()), "{}");
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(reply.json().path("expires_in").asLong()).isEqualTo(TOKEN_TTL.toSeconds());
            return reply.json().path("service_token").asText();
          };

      String old = exchange.get();
      String oldKid = kid(old);

      // No admin call: the period ends, the next key is published (JWKS max-age ahead) and then
      // signs. Until the switch, every exchange is signed by the old key.
      String lastOld = old;
      String current = old;
      String publishedNext = null;
      Instant deadline = Instant.now().plus(ROTATION_PERIOD).plusSeconds(15);
      while (kid(current).equals(oldKid) && Instant.now().isBefore(deadline)) {
        lastOld = current;
        if (publishedNext == null) {
          publishedNext = otherKid(jwks(http), oldKid);
        }
        Thread.sleep(100);
        current = exchange.get();
      }
      String nextKid = kid(current);
      assertThat(nextKid).as("the period ended and a new key signs").isNotEqualTo(oldKid);
      assertThat(publishedNext)
          .as("the new key was in the JWKS before it signed")
          .isEqualTo(nextKid);
      Instant lastOldExpiry =
          SignedJWT.parse(lastOld).getJWTClaimsSet().getExpirationTime().toInstant();
      Http withLastOld = new Http(http, lastOld);
      assertThat(withLastOld.get("/v1/tenants/keys/signing-keys").status())
          .as("the rotated-out key still verifies its unexpired token")
          .isEqualTo(200);
      assertThat(jwks(http)).contains(oldKid).contains(nextKid);

      // Past the token lifetime plus the skew, the old key is retired: gone from the JWKS, its
      // tokens refused, its state retired.
      Instant retiredBy = lastOldExpiry.plus(SKEW).plusSeconds(10);
      while (jwks(http).contains(oldKid) && Instant.now().isBefore(retiredBy)) {
        Thread.sleep(200);
      }
      assertThat(jwks(http)).doesNotContain(oldKid).contains(nextKid);
      assertThat(Instant.now())
          .as("not retired before its last token expired")
          .isAfter(lastOldExpiry);
      assertThat(withLastOld.get("/v1/tenants/keys/signing-keys").status()).isEqualTo(401);
      var keys = new Http(http, exchange.get()).get("/v1/tenants/keys/signing-keys");
      assertThat(keys.status()).isEqualTo(200);
      assertThat(keys.json().path("keys").toString()).contains(nextKid).doesNotContain("\"d\"");
      assertThat(
              TestDatabase.queryLong(
                  db,
                  "SELECT count(*) FROM signing_keys WHERE kid = '"
                      + oldKid
                      + "' AND state = 'retired' AND length(private_key) = 0"))
          .as("the retired key's private half is erased")
          .isEqualTo(1);

      // A tenant created through the API has its key from the start; one left without any (its
      // keys deleted by hand, or created before tenants got a key at creation) gets one from the
      // leader's duty, with no exchange asking for it.
      Http operator = new Http(http, SharedServer.OPERATOR_TOKEN);
      assertThat(operator.put("/v1/tenants/bare", Http.tenant("bare", "no bootstrap")).status())
          .isEqualTo(201);
      String first = otherKid(jwks(http, "bare"), "");
      assertThat(first).as("the new tenant's key, published at once").isNotNull();
      try (var c =
              java.sql.DriverManager.getConnection(db, TestDatabase.USER, TestDatabase.PASSWORD);
          var st = c.createStatement()) {
        assertThat(st.executeUpdate("DELETE FROM signing_keys WHERE tenant = 'bare'")).isEqualTo(1);
      }
      Instant keyed = Instant.now().plusSeconds(10);
      String replaced = otherKid(jwks(http, "bare"), first);
      while (replaced == null && Instant.now().isBefore(keyed)) {
        Thread.sleep(100);
        replaced = otherKid(jwks(http, "bare"), first);
      }
      assertThat(replaced).as("a key made by the duty").isNotNull();
      assertThat(
              TestDatabase.queryLong(
                  db,
                  "SELECT count(*) FROM signing_keys WHERE tenant = 'bare' AND state = 'active'"))
          .isEqualTo(1);
      assertThat(
              TestDatabase.queryLong(
                  db,
                  "SELECT count(*) FROM audit_records WHERE tenant = 'bare'"
                      + " AND operation = 'signing_key.create'"))
          .as("both keys' creations are audited")
          .isEqualTo(2);

      // The key set, held in memory once read, goes with its tenant.
      assertThat(operator.delete("/v1/tenants/bare").status()).isEqualTo(200);
      var gone = new Http(http, null).get("/v1/tenants/bare/.well-known/jwks.json");
      assertThat(gone.status()).as(gone.body()).isEqualTo(404);
    }
  }

  private static String kid(String token) throws Exception {
    return SignedJWT.parse(token).getHeader().getKeyID();
  }

  /** A kid in the JWKS other than {@code kid}, or null. */
  private static String otherKid(String jwks, String kid) throws Exception {
    for (var key : com.nimbusds.jose.jwk.JWKSet.parse(jwks).getKeys()) {
      if (!key.getKeyID().equals(kid)) {
        return key.getKeyID();
      }
    }
    return null;
  }

  private static String jwks(int http) {
    return jwks(http, "keys");
  }

  private static String jwks(int http, String tenant) {
    var reply = new Http(http, null).get("/v1/tenants/" + tenant + "/.well-known/jwks.json");
    assertThat(reply.status()).isEqualTo(200);
    return reply.body();
  }
}

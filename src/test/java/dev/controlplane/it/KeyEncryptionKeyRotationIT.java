package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.auth.KeyEncryption;
import dev.controlplane.auth.LegacyKeyFormat;
import dev.controlplane.it.support.Auth;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Replacing the key-encryption key that protects the tenants' private signing keys, as a security
 * team asks after a suspected leak or on a schedule, step by step as docs/security.md says: the new
 * key first a fallback everywhere, then current with the old one a fallback, when a node signs with
 * keys stored under either and the leader stores every key again under the new one (those stored
 * before keys named their key-encryption key included), then the old key dropped. A node given a
 * key that stored none of the keys refuses to start.
 */
class KeyEncryptionKeyRotationIT {

  private static final String TENANT = "kek";

  @Test
  void theKeyEncryptionKeyIsReplacedWithoutLosingAKeyAndAWrongOneStopsTheStart() throws Exception {
    String db = IsolatedServer.database("keys");
    byte[] oldKey = randomKey();
    byte[] newKey = randomKey();
    String firstKid;
    try (IsolatedServer node = IsolatedServer.start("kek-old", "keys", settings(oldKey, null))) {
      var created =
          Auth.bootstrap(
              node.bootstrapPort(),
              TENANT,
              List.of(Auth.issuerRecord("idp-kek", null)),
              List.of(Auth.principal(OidcProvider.issuer("idp-kek"), "alice")),
              SharedServer.BOOTSTRAP_TOKEN);
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      firstKid = kid(exchange(node));
      Http operator = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      assertThat(operator.put("/v1/tenants/older", Http.tenant("older", "")).status())
          .isEqualTo(201);
    }
    // What a node of the build before key ids stored.
    storeInFormatBeforeKeyIds(db, "older", oldKey);

    // Step 1: the new key readable everywhere, still only decrypting; the key stored in the old
    // format is stored again in the new one, under the old key.
    try (IsolatedServer node =
        IsolatedServer.startOn("kek-step1", db, settings(oldKey, List.of(newKey)))) {
      assertThat(kid(exchange(node))).isEqualTo(firstKid);
      awaitNoneToReencrypt(node);
      assertThat(storedKeys(db))
          .hasSize(2)
          .allSatisfy(stored -> assertThat(new KeyEncryption(oldKey).isCurrent(stored)).isTrue());
    }

    // Step 2: the new key current, the old one a fallback; the leader stores every key again.
    try (IsolatedServer node =
        IsolatedServer.startOn("kek-both", db, settings(newKey, List.of(randomKey(), oldKey)))) {
      assertThat(kid(exchange(node)))
          .as("signed with the key stored under the old key-encryption key")
          .isEqualTo(firstKid);
      awaitNoneToReencrypt(node);
      assertThat(storedKeys(db))
          .as("every key's stored form, under the new key-encryption key")
          .hasSize(2)
          .allSatisfy(
              stored ->
                  assertThat(new KeyEncryption(newKey).isCurrent(stored))
                      .as("stored under the new key")
                      .isTrue());
      assertThat(
              TestDatabase.queryLong(
                  db,
                  "SELECT count(DISTINCT tenant) FROM audit_records"
                      + " WHERE operation = 'signing_key.reencrypt' AND principal = 'controlplane'"))
          .isEqualTo(2);
      assertThat(kid(exchange(node))).isEqualTo(firstKid);
      assertThat(node.process().logText())
          .contains(
              "every signing key is stored under SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY now");
    }

    // Step 4: the old key dropped.
    try (IsolatedServer node = IsolatedServer.startOn("kek-new", db, settings(newKey, null))) {
      assertThat(kid(exchange(node))).as("the old key dropped").isEqualTo(firstKid);
    }

    // A node given the replaced key (or a mistyped one) alone: nothing it could sign with.
    Map<String, String> env =
        SharedServer.baseEnvironment(
            dev.controlplane.it.support.Ports.free(), dev.controlplane.it.support.Ports.free(), db);
    env.putAll(settings(oldKey, null));
    try (ServerProcess refused = new ServerProcess("kek-wrong", env).start()) {
      assertThat(refused.awaitExit(Duration.ofSeconds(90))).as(refused.tail()).isEqualTo(3);
      assertThat(refused.logText())
          .contains(
              "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY opens none of the 2 stored signing keys"
                  + " checked, nor does any of SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS")
          .doesNotContain(Base64.getEncoder().encodeToString(oldKey))
          .doesNotContain(Base64.getEncoder().encodeToString(newKey));
    }
  }

  private static void awaitNoneToReencrypt(IsolatedServer node) throws InterruptedException {
    Metrics.await(
        "keys not yet under the current key-encryption key",
        () ->
            Metrics.valueIn(
                Metrics.scrape(node.httpPort()), "controlplane_signing_keys_to_reencrypt", ""),
        left -> left == 0);
  }

  private static Map<String, String> settings(byte[] current, List<byte[]> fallbacks) {
    Map<String, String> settings = new HashMap<>();
    settings.put("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY", base64(current));
    if (fallbacks != null) {
      settings.put(
          "SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS",
          String.join(", ", fallbacks.stream().map(KeyEncryptionKeyRotationIT::base64).toList()));
    }
    settings.put("SERVICE_CONTROLPLANE_KEY_ROTATION_CHECK_INTERVAL", "250ms");
    return settings;
  }

  private static String exchange(IsolatedServer node) {
    var reply =
        Auth.exchange(
            node.httpPort(), TENANT, OidcProvider.token("idp-kek", "alice", Map.of()), "{}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().path("service_token").asText();
  }

  private static String kid(String token) throws Exception {
    return SignedJWT.parse(token).getHeader().getKeyID();
  }

  /** The stored private keys that are not retired. */
  private static List<byte[]> storedKeys(String db) throws Exception {
    try (Connection c = DriverManager.getConnection(db, TestDatabase.USER, TestDatabase.PASSWORD);
        var st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT private_key FROM signing_keys WHERE state <> 'retired'")) {
      List<byte[]> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getBytes(1));
      }
      return out;
    }
  }

  /** Rewrites the tenant's key as stored before 2026-12-01: 1 || nonce || AES-256-GCM. */
  private static void storeInFormatBeforeKeyIds(String db, String tenant, byte[] key)
      throws Exception {
    try (Connection c = DriverManager.getConnection(db, TestDatabase.USER, TestDatabase.PASSWORD)) {
      String kid;
      byte[] plaintext;
      try (PreparedStatement ps =
          c.prepareStatement("SELECT kid, private_key FROM signing_keys WHERE tenant = ?")) {
        ps.setString(1, tenant);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          kid = rs.getString(1);
          plaintext = new KeyEncryption(key).decrypt(rs.getBytes(2), tenant, kid);
        }
      }
      byte[] legacy = LegacyKeyFormat.seal(key, plaintext, tenant, kid);
      try (PreparedStatement ps =
          c.prepareStatement("UPDATE signing_keys SET private_key = ? WHERE kid = ?")) {
        ps.setBytes(1, legacy);
        ps.setString(2, kid);
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
    }
  }

  private static byte[] randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return key;
  }

  private static String base64(byte[] key) {
    return Base64.getEncoder().encodeToString(key);
  }
}

package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import dev.controlplane.cache.TenantChanges;
import dev.controlplane.config.AuthConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ServiceTokens#remembered} is what a gRPC event loop may ask: it must answer only from
 * memory, and never where {@link ServiceTokens#verify} would read the tenant's keys.
 */
class RememberedServiceTokensTest {

  /** The tenant's keys as the database would give them, counting the reads. */
  private static final class KeysInMemory extends SigningKeys {
    final OctetKeyPair key;
    final AtomicInteger verificationKeyReads = new AtomicInteger();

    KeysInMemory() throws JOSEException {
      key = new OctetKeyPairGenerator(Curve.Ed25519).keyID("k1").generate();
    }

    @Override
    public OctetKeyPair activeKey(String tenant) {
      return key;
    }

    @Override
    public Map<String, OctetKeyPair> verificationKeys(String tenant) {
      verificationKeyReads.incrementAndGet();
      return Map.of(key.getKeyID(), key.toPublicJWK());
    }
  }

  private KeysInMemory keys;
  private TenantChanges changes;
  private ServiceTokens tokens;

  @BeforeEach
  void setUp() throws JOSEException {
    keys = new KeysInMemory();
    changes = new TenantChanges();
    tokens = new ServiceTokens();
    tokens.keys = keys;
    tokens.changes = changes;
    tokens.config =
        new AuthConfig() {
          @Override
          public Duration tokenTtl() {
            return Duration.ofMinutes(15);
          }
        };
    tokens.init();
  }

  private String issued(String tenant) {
    return tokens.issue(tenant, "alice", List.of()).token();
  }

  @Test
  void aTokenIsAnsweredFromMemoryOnlyOnceVerifiedAndWhileItsTenantsKeysAreLoaded() {
    String token = issued("t1");

    assertThat(tokens.remembered(token, "t1")).as("never verified here").isEmpty();
    assertThat(keys.verificationKeyReads).as("remembered read nothing").hasValue(0);

    tokens.verify(token, "t1");
    assertThat(keys.verificationKeyReads).hasValue(1);

    assertThat(tokens.remembered(token, "t1"))
        .hasValueSatisfying(v -> assertThat(v.principal()).isEqualTo("alice"));
    assertThat(tokens.remembered(token, "t2")).as("another tenant's call").isEmpty();

    changes.changed("t1");
    assertThat(tokens.remembered(token, "t1")).as("the tenant's keys changed").isEmpty();
    assertThat(keys.verificationKeyReads).as("remembered never loads").hasValue(1);

    tokens.verify(token, "t1");
    assertThat(keys.verificationKeyReads).hasValue(2);
    assertThat(tokens.remembered(token, "t1")).isPresent();
  }
}

package dev.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.controlplane.config.NetworkList;
import dev.controlplane.error.ControlPlaneException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The identity an issuer's token carries: principal ids that no two (issuer, subject) pairs share,
 * and groups bound to the issuer that asserted them.
 */
class IssuerTrustTest {

  private static final AddressPolicy ANY = new AddressPolicy(NetworkList.parse("t", "127.0.0.0/8"));

  private static IssuerRecord issuer(String iss, String groupsClaim, String prefix) {
    return new IssuerRecord(
        iss, List.of("aud"), null, "https://idp.example/jwks", null, groupsClaim, prefix);
  }

  @Test
  void anIssuerWithAPipeWouldShareAPrincipalIdAndIsRefused() {
    assertThat(PrincipalId.of("ISS1|u", "victim"))
        .as("the collision the rule prevents")
        .isEqualTo(PrincipalId.of("ISS1", "u|victim"));
    assertThatThrownBy(() -> issuer("ISS1|u", null, "").validated(false, ANY, ""))
        .isInstanceOf(ControlPlaneException.class)
        .hasMessageContaining("'|'");
    assertThat(issuer("https://idp.example/realms/a", null, "").validated(false, ANY, ""))
        .isNotNull();
  }

  /**
   * Without '|' in issuers the hashed string {@code iss|sub} splits back into its pair at the first
   * '|', so distinct pairs give distinct strings (and SHA-256 distinct ids).
   */
  @Test
  void withoutPipesInIssuersTheHashedStringDeterminesThePair() {
    List<String> issuers = List.of("a", "ab", "https://x", "https://x/", "");
    List<String> subjects = List.of("b", "|b", "auth0|123", "b|", "", "a|b|c");
    Map<String, String> seen = new java.util.HashMap<>();
    for (String iss : issuers) {
      for (String sub : subjects) {
        String joined = iss + "|" + sub;
        int cut = joined.indexOf('|');
        assertThat(joined.substring(0, cut)).isEqualTo(iss);
        assertThat(joined.substring(cut + 1)).isEqualTo(sub);
        String id = PrincipalId.of(iss, sub);
        assertThat(seen.put(id, iss + " / " + sub)).as(iss + " / " + sub).isNull();
      }
    }
  }

  @Test
  void groupsArePrefixedByTheirIssuerAndTakenAsSent() {
    assertThat(Groups.from(List.of("admins", "/org/admins", "Ops Team", "group:devs"), ""))
        .containsExactlyInAnyOrder(
            "group:admins", "group:/org/admins", "group:Ops Team", "group:devs");
    assertThat(Groups.from(List.of("admins"), "partner/")).containsExactly("group:partner/admins");
    assertThat(Groups.from("single", "")).containsExactly("group:single");
    assertThat(Groups.from(List.of("", "a\nb", 5, "x".repeat(257)), "")).isEmpty();
    assertThat(
            Groups.from(
                java.util.stream.IntStream.range(0, 500).mapToObj(i -> "g" + i).toList(), ""))
        .hasSize(Groups.MAX);
  }

  @Test
  void twoGroupMappingIssuersOfATenantNeverShareAGroupsPrefix() {
    IssuerRecord main = issuer("https://main", "groups", "");
    IssuerRecord partner = issuer("https://partner", "groups", "");
    IssuerRecord prefixed = issuer("https://partner", "groups", "partner/");
    IssuerRecord noGroups = issuer("https://plain", null, "");
    assertThat(IssuerAdmin.groupClash(partner, List.of(main))).contains(main);
    assertThat(IssuerAdmin.groupClash(prefixed, List.of(main))).isEmpty();
    assertThat(
            IssuerAdmin.groupClash(issuer("https://eu", "groups", "partner/"), List.of(prefixed)))
        .contains(prefixed);
    assertThat(IssuerAdmin.groupClash(noGroups, List.of(main))).isEmpty();
    assertThat(IssuerAdmin.groupClash(main, List.of(main))).as("itself, updated").isEmpty();
  }

  @Test
  void aGroupSubjectBelongsToTheIssuerWithTheLongestPrefixItStartsWith() {
    IssuerRecord main = issuer("https://main", "groups", "");
    IssuerRecord partner = issuer("https://partner", "groups", "partner/");
    IssuerRecord eu = issuer("https://eu", "groups", "partner/eu/");
    List<IssuerRecord> trusted = List.of(main, partner, eu, issuer("https://plain", null, "x/"));
    assertThat(IssuerAdmin.assertingIssuer("group:admins", trusted)).contains("https://main");
    assertThat(IssuerAdmin.assertingIssuer("group:partner/admins", trusted))
        .as("the main issuer's own group 'partner/admins' is not its to assert")
        .contains("https://partner");
    assertThat(IssuerAdmin.assertingIssuer("group:partner/eu/ops", trusted)).contains("https://eu");
    assertThat(IssuerAdmin.assertingIssuer("group:x/y", trusted)).contains("https://main");
    assertThat(IssuerAdmin.assertingIssuer("role:x", trusted)).isEmpty();
    assertThat(IssuerAdmin.assertingIssuer("group:admins", List.of(partner))).isEmpty();
    IssuerRecord twin = issuer("https://twin", "groups", "");
    assertThat(IssuerAdmin.assertingIssuer("group:admins", List.of(main, twin)))
        .as("two issuers with one prefix: nobody's")
        .isEmpty();
  }
}

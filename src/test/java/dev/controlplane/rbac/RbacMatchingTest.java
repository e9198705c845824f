package dev.controlplane.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.casbin.jcasbin.main.Enforcer;
import org.casbin.jcasbin.util.BuiltInFunctions;
import org.junit.jupiter.api.Test;

class RbacMatchingTest {

  private static Permission perm(String text) {
    return Permission.parse(text)
        .orElseThrow(() -> new AssertionError("not a permission: " + text));
  }

  @Test
  void aStreamWildcardOfOneTenantGrantsNothingInAnotherTenantOrAMalformedObject() {
    Enforcer enforcer = new Enforcer(TenantEnforcers.model());
    enforcer.addPolicy("role:r", "acme", "stream:acme/ns1/*", "stream.publish");
    enforcer.addGroupingPolicy("p1", "role:r", "acme");
    enforcer.addGroupingPolicy("p1", "role:r", "evil");
    enforcer.addPolicy("role:r", "evil", "stream:acme/ns1/*", "stream.publish");

    assertThat(enforcer.enforce("p1", "acme", "stream:acme/ns1/x", "stream.publish")).isTrue();
    assertThat(enforcer.enforce("p1", "acme", "stream:evil/ns1/x", "stream.publish")).isFalse();
    assertThat(enforcer.enforce("p1", "acme", "streamXacme/ns1/x", "stream.publish")).isFalse();
    assertThat(enforcer.enforce("p1", "evil", "stream:evil/ns1/x", "stream.publish")).isFalse();

    Permission grant = perm("stream.publish:stream:acme/ns1/*");
    assertThat(
            grant.covers(
                new Permission(Action.STREAM_PUBLISH, RbacObject.stream("evil", "ns1", "x"))))
        .isFalse();
    assertThat(RbacObject.parse("streamXacme/ns1/x")).isEmpty();
    assertThat(Permission.parse("stream.publish:streamXacme/ns1/x")).isEmpty();
  }

  @Test
  void keyMatch2WouldLeakAcrossTenantsWhichIsWhyItIsNotUsed() {
    assertThat(BuiltInFunctions.keyMatch2("stream:evil/ns1/x", "stream:acme/ns1/*"))
        .as("the leak keyMatch2 has")
        .isTrue();
    assertThat(BuiltInFunctions.keyMatch("stream:evil/ns1/x", "stream:acme/ns1/*")).isFalse();
    assertThat(TenantEnforcers.MODEL)
        .contains("keyMatch(r.obj, p.obj)")
        .doesNotContain("keyMatch2");
  }

  @Test
  void tenantManageCoversEverythingInsideItsTenantButNotRbacOrOtherTenants() {
    Permission tenant = perm("tenant.manage:tenant:acme");
    assertThat(tenant.covers(perm("stream.publish:stream:acme/ns/s"))).isTrue();
    assertThat(tenant.covers(perm("ns.manage:namespace:acme/*"))).isTrue();
    assertThat(tenant.covers(perm("cache.write:cache:acme/ns/*"))).isTrue();
    assertThat(tenant.covers(perm("rbac.view:tenant:acme"))).isFalse();
    assertThat(tenant.covers(perm("stream.publish:stream:other/ns/s"))).isFalse();
  }

  @Test
  void nsManageCoversItsNamespaceOnly() {
    Permission ns = perm("ns.manage:namespace:acme/ns1");
    assertThat(ns.covers(perm("stream.manage:stream:acme/ns1/*"))).isTrue();
    assertThat(ns.covers(perm("cache.read:cache:acme/ns1/c"))).isTrue();
    assertThat(ns.covers(perm("stream.publish:stream:acme/ns2/s"))).isFalse();
    assertThat(ns.covers(perm("ns.manage:namespace:acme/*"))).isFalse();
    assertThat(ns.covers(perm("tenant.manage:tenant:acme"))).isFalse();
  }

  @Test
  void theGrammarRefusesTenantWildcardsInnerWildcardsAndActionKindMismatches() {
    assertThat(RbacObject.parse("tenant:*")).isEmpty();
    assertThat(RbacObject.parse("stream:*/ns/s")).isEmpty();
    assertThat(RbacObject.parse("stream:acme/*/s")).isEmpty();
    assertThat(RbacObject.parse("namespace:acme/ns/extra")).isEmpty();
    assertThat(RbacObject.parse("stream:acme/ns/*")).isPresent();
    assertThat(Permission.parse("stream.publish:namespace:acme/ns")).isEmpty();
  }

  @Test
  void hintsNarrowAnInheritedGrantAndNeverAddWhatIsNotHeld() {
    List<Permission> granted =
        List.of(perm("tenant.manage:tenant:acme"), perm("rbac.view:tenant:acme"));
    var narrowed =
        Grants.filter(
            granted,
            Set.of(Action.STREAM_PUBLISH),
            List.of(RbacObject.parse("stream:acme/ns/orders").orElseThrow()));
    assertThat(narrowed)
        .extracting(Permission::toString)
        .containsExactly("stream.publish:stream:acme/ns/orders");
    assertThat(
            Grants.filter(
                granted,
                Set.of(),
                List.of(RbacObject.parse("stream:other/ns/orders").orElseThrow())))
        .isEmpty();
    assertThat(Grants.filter(granted, Set.of(Action.RBAC_VIEW), List.of()))
        .extracting(Permission::toString)
        .containsExactly("rbac.view:tenant:acme");
    assertThat(Grants.filter(granted, Set.of(Action.STREAM_SUBSCRIBE), List.of()))
        .as("a stream action cannot be written tenant-wide, and the grant itself is more")
        .isEmpty();
    assertThat(
            Grants.filter(
                List.of(perm("stream.publish:stream:acme/ns/*")),
                Set.of(Action.CACHE_READ),
                List.of()))
        .isEmpty();
  }
}

package dev.controlplane.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The hints of a token exchange narrow inherited grants to exactly the covered, narrower
 * permissions they name (decisions.md, RBAC matching), and never yield more than was asked for.
 */
class GrantsTest {

  private static final List<Permission> TENANT_ADMIN =
      perms(
          "tenant.manage:tenant:acme",
          "rbac.view:tenant:acme",
          "rbac.policy.manage:tenant:acme",
          "rbac.assignment.manage:tenant:acme");

  private static List<Permission> perms(String... texts) {
    return Arrays.stream(texts).map(t -> Permission.parse(t).orElseThrow()).toList();
  }

  private static List<RbacObject> objects(String... texts) {
    return Arrays.stream(texts).map(t -> RbacObject.parse(t).orElseThrow()).toList();
  }

  private static List<String> filter(
      List<Permission> granted, Set<Action> requested, List<RbacObject> resources) {
    return Grants.filter(granted, requested, resources).stream().map(Permission::toString).toList();
  }

  @Test
  void aStreamWildcardHintFromATenantAdminYieldsTheStreamActionsOnThatWildcard() {
    assertThat(filter(TENANT_ADMIN, Set.of(), objects("stream:acme/orders/*")))
        .containsExactlyInAnyOrder(
            "stream.manage:stream:acme/orders/*",
            "stream.publish:stream:acme/orders/*",
            "stream.subscribe:stream:acme/orders/*");
  }

  @Test
  void aStreamHintFromANamespaceManagerYieldsTheStreamActionsOnThatStream() {
    assertThat(
            filter(
                perms("ns.manage:namespace:acme/orders"),
                Set.of(),
                objects("stream:acme/orders/x")))
        .containsExactlyInAnyOrder(
            "stream.manage:stream:acme/orders/x",
            "stream.publish:stream:acme/orders/x",
            "stream.subscribe:stream:acme/orders/x");
  }

  @Test
  void aRequestedActionAloneNeverReturnsTheBroaderGrant() {
    assertThat(filter(TENANT_ADMIN, Set.of(Action.STREAM_PUBLISH), List.of()))
        .as("stream.publish throughout a tenant has no object in the grammar: nothing, not more")
        .isEmpty();
    assertThat(
            filter(
                perms("ns.manage:namespace:acme/orders"), Set.of(Action.STREAM_PUBLISH), List.of()))
        .containsExactly("stream.publish:stream:acme/orders/*");
    assertThat(filter(TENANT_ADMIN, Set.of(Action.NS_MANAGE), List.of()))
        .containsExactly("ns.manage:namespace:acme/*");
    assertThat(filter(TENANT_ADMIN, Set.of(Action.RBAC_VIEW), List.of()))
        .containsExactly("rbac.view:tenant:acme");
  }

  @Test
  void requestedActionsAndResourcesTogetherYieldOnlyTheirIntersection() {
    assertThat(
            filter(
                TENANT_ADMIN,
                Set.of(Action.STREAM_PUBLISH, Action.CACHE_READ),
                objects("stream:acme/orders/x", "cache:acme/orders/c")))
        .containsExactlyInAnyOrder(
            "stream.publish:stream:acme/orders/x", "cache.read:cache:acme/orders/c");
  }

  @Test
  void aNamespaceHintYieldsTheNamespaceGrantAndDropsWhatItCovers() {
    assertThat(filter(TENANT_ADMIN, Set.of(), objects("namespace:acme/orders")))
        .containsExactlyInAnyOrder(
            "ns.manage:namespace:acme/orders",
            "rbac.view:namespace:acme/orders",
            "rbac.policy.manage:namespace:acme/orders",
            "rbac.assignment.manage:namespace:acme/orders");
  }

  @Test
  void aHintAsBroadAsAGrantKeepsTheGrantAsGranted() {
    assertThat(filter(TENANT_ADMIN, Set.of(), objects("tenant:acme")))
        .containsExactlyInAnyOrderElementsOf(
            TENANT_ADMIN.stream().map(Permission::toString).toList());
    assertThat(
            filter(
                perms("stream.publish:stream:acme/orders/x"),
                Set.of(),
                objects("stream:acme/orders/*")))
        .containsExactly("stream.publish:stream:acme/orders/x");
  }

  @Test
  void nothingIsYieldedThatIsNotHeldOrNotRequested() {
    List<Permission> publisher = perms("stream.publish:stream:acme/orders/*");
    assertThat(filter(publisher, Set.of(Action.STREAM_SUBSCRIBE), List.of())).isEmpty();
    assertThat(filter(publisher, Set.of(Action.STREAM_PUBLISH), objects("stream:acme/other/x")))
        .isEmpty();
    assertThat(filter(TENANT_ADMIN, Set.of(), objects("stream:evil/orders/*"))).isEmpty();
    for (String hint : List.of("stream:acme/orders/*", "namespace:acme/orders", "tenant:acme")) {
      for (Action action : Action.values()) {
        for (Permission p : Grants.filter(TENANT_ADMIN, Set.of(action), objects(hint))) {
          assertThat(p.action()).isEqualTo(action);
          assertThat(Permission.anyCovers(TENANT_ADMIN, p)).as(p.toString()).isTrue();
        }
      }
    }
  }

  @Test
  void withoutHintsTheGrantsAreListedAsGranted() {
    assertThat(filter(TENANT_ADMIN, Set.of(), List.of()))
        .containsExactlyElementsOf(TENANT_ADMIN.stream().map(Permission::toString).toList());
  }
}

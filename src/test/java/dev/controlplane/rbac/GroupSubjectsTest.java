package dev.controlplane.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.casbin.jcasbin.main.SyncedEnforcer;
import org.junit.jupiter.api.Test;

/**
 * Group names as identity providers send them are RBAC subjects: Keycloak paths, Azure AD object
 * ids, names with spaces, commas or quotes. They are matched exactly, through jcasbin too.
 */
class GroupSubjectsTest {

  private static final List<String> IDP_GROUPS =
      List.of(
          "/org/admins",
          "/ops-team",
          "6f1c2b8e-3d4a-4e5f-9a0b-1c2d3e4f5a6b",
          "Ops Team",
          "R&D, Berlin",
          "\"quoted\"",
          "# not a comment",
          "Équipe données",
          "x".repeat(Subjects.MAX_GROUP_NAME));

  @Test
  void everyGroupNameAnIdpSendsIsAValidSubject() {
    for (String name : IDP_GROUPS) {
      assertThat(Subjects.isGroupName(name)).as(name).isTrue();
      assertThat(Subjects.isGroup(Subjects.group("", name))).as(name).isTrue();
      assertThat(Subjects.isGroup(Subjects.group("partner/", name))).as(name).isTrue();
    }
  }

  @Test
  void emptyOverlongAndControlCharacterNamesAreRefused() {
    assertThat(Subjects.isGroupName("")).isFalse();
    assertThat(Subjects.isGroupName("x".repeat(Subjects.MAX_GROUP_NAME + 1))).isFalse();
    assertThat(Subjects.isGroupName("line\nbreak")).isFalse();
    assertThat(Subjects.isGroupName("nul\u0000")).isFalse();
    assertThat(Subjects.isGroupName("c1\u0085")).isFalse();
    assertThat(Subjects.isGroup("group:")).isFalse();
    assertThat(Subjects.isGroup("admins")).isFalse();
    assertThat(Subjects.isGroupsPrefix("")).isTrue();
    assertThat(Subjects.isGroupsPrefix("x".repeat(Subjects.MAX_GROUPS_PREFIX + 1))).isFalse();
  }

  @Test
  void rolesKeepTheResourceNameRule() {
    assertThat(Subjects.isRole("role:stream-admin")).isTrue();
    assertThat(Subjects.isRole("role:Stream Admin")).isFalse();
    assertThat(Subjects.isPrincipalId("a".repeat(64))).isTrue();
    assertThat(Subjects.isPrincipalId("A".repeat(64))).isFalse();
  }

  @Test
  void jcasbinMatchesEveryGroupNameExactly() {
    RbacStore rows =
        new RbacStore() {
          @Override
          public List<PolicyRule> policies(String tenant) {
            return IDP_GROUPS.stream()
                .map(
                    g ->
                        new PolicyRule(
                            "role:" + Math.abs(g.hashCode()), "tenant:acme", "rbac.view"))
                .toList();
          }

          @Override
          public List<Grouping> groupings(String tenant) {
            return IDP_GROUPS.stream()
                .map(g -> new Grouping("group:" + g, "role:" + Math.abs(g.hashCode())))
                .toList();
          }
        };
    SyncedEnforcer enforcer =
        new SyncedEnforcer(TenantEnforcers.model(), new TableAdapter(rows, "acme"));
    for (String group : IDP_GROUPS) {
      assertThat(enforcer.getImplicitPermissionsForUser("group:" + group, "acme"))
          .as(group)
          .containsExactly(
              List.of("role:" + Math.abs(group.hashCode()), "acme", "tenant:acme", "rbac.view"));
    }
    assertThat(enforcer.getImplicitPermissionsForUser("group:R&D", "acme")).isEmpty();
    assertThat(enforcer.getImplicitPermissionsForUser("group:Ops", "acme")).isEmpty();
    assertThat(Set.copyOf(enforcer.getAllSubjects())).hasSize(IDP_GROUPS.size());
  }
}

package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.GroupCommand;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.ApiClient.Call;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.TenantOption;
import dev.controlplane.cli.output.Printer;
import dev.controlplane.cli.output.Render;
import dev.controlplane.cli.output.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code cpctl rbac}: a tenant's policies ({@code subject object action}) and groupings ({@code
 * principal role}). Both are lists of rules at {@code /v1/tenants/{t}/rbac/<kind>}; the same list,
 * grant and revoke commands serve both, told apart by their parent.
 */
@Command(
    name = "rbac",
    header = "List, grant and revoke RBAC policies and groupings.",
    mixinStandardHelpOptions = true,
    description = {
      "A tenant's RBAC: policies grant an action on an object to a subject (a principal id,"
          + " group:NAME or role:NAME); groupings give a principal or group a role"
          + " (docs/security.md)."
    },
    subcommands = {RbacCommand.Policies.class, RbacCommand.Groupings.class},
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl rbac policies list -t acme",
      "  cpctl rbac policies grant -t acme --subject role:publisher \\",
      "      --object 'stream:acme/payments/*' --action stream.publish",
      "  cpctl rbac groupings grant -t acme --principal group:payments --role role:publisher"
    })
public final class RbacCommand extends GroupCommand {

  /** The kind of rule a parent command stands for: its path and fields, in table order. */
  interface Rules {
    String path();

    List<String> fields();

    /** One rule's name in output: policy, grouping. */
    String singular();
  }

  @Command(
      name = "policies",
      mixinStandardHelpOptions = true,
      description = "Policies: subject, object, action.",
      subcommands = {ListRules.class, GrantRule.class, RevokeRule.class},
      footerHeading = "%nExamples:%n",
      footer = "  cpctl rbac policies list -t acme -o yaml")
  static final class Policies extends GroupCommand implements Rules {
    @Override
    public String path() {
      return "policies";
    }

    @Override
    public List<String> fields() {
      return List.of("subject", "object", "action");
    }

    @Override
    public String singular() {
      return "policy";
    }
  }

  @Command(
      name = "groupings",
      mixinStandardHelpOptions = true,
      description = "Groupings: a principal (or group:NAME) holds a role.",
      subcommands = {ListRules.class, GrantRule.class, RevokeRule.class},
      footerHeading = "%nExamples:%n",
      footer = "  cpctl rbac groupings list -t acme")
  static final class Groupings extends GroupCommand implements Rules {
    @Override
    public String path() {
      return "groupings";
    }

    @Override
    public List<String> fields() {
      return List.of("principal", "role");
    }

    @Override
    public String singular() {
      return "grouping";
    }
  }

  /** What list, grant and revoke share: the tenant and the parent's kind of rule. */
  abstract static class RuleCommand extends BaseCommand {
    @Mixin TenantOption tenant;

    @ParentCommand Rules rules;

    String url(String t) {
      return "/v1/tenants/" + t + "/rbac/" + rules.path();
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the rules (those within your rbac.view scope).",
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl rbac policies list -t acme",
        "  cpctl rbac groupings list -t acme -o json"
      })
  static final class ListRules extends RuleCommand {
    @Mixin OutputOption output;

    @Override
    protected int execute() {
      Session session = session();
      String t = session.tenant(tenant.tenant);
      JsonNode reply = session.api().send(Call.of("GET", url(t)).tenant(t)).body();
      if (!Render.structured(session, reply, output.format)) {
        Table table = new Table(rules.fields());
        for (JsonNode rule : reply.path(rules.path())) {
          table.row(rules.fields().stream().map(f -> rule.path(f).asText()).toList());
        }
        table.print(session.out());
      }
      return ExitCodes.OK;
    }
  }

  /** The fields of a rule: a policy's or a grouping's, whichever the parent takes. */
  abstract static class RuleChange extends RuleCommand {
    @Option(
        names = "--subject",
        paramLabel = "SUBJECT",
        description = "Policies: principal id, group:NAME or role:NAME.")
    String subject;

    @Option(
        names = "--object",
        paramLabel = "OBJECT",
        description = "Policies: e.g. stream:acme/payments/*.")
    String object;

    @Option(
        names = "--action",
        paramLabel = "ACTION",
        description = "Policies: e.g. stream.publish.")
    String action;

    @Option(
        names = "--principal",
        paramLabel = "PRINCIPAL",
        description = "Groupings: principal id or group:NAME.")
    String principal;

    @Option(names = "--role", paramLabel = "ROLE", description = "Groupings: role:NAME.")
    String role;

    /** The rule as given; every field of the parent's kind is required, no other allowed. */
    Map<String, String> rule() {
      Map<String, String> given = new LinkedHashMap<>();
      given.put("subject", subject);
      given.put("object", object);
      given.put("action", action);
      given.put("principal", principal);
      given.put("role", role);
      Map<String, String> rule = new LinkedHashMap<>();
      for (var e : given.entrySet()) {
        boolean wanted = rules.fields().contains(e.getKey());
        if (wanted && e.getValue() == null || !wanted && e.getValue() != null) {
          throw CliException.usage(
              rules.path() + " take --" + String.join(", --", rules.fields()) + " (all of them)");
        }
        if (wanted) {
          rule.put(e.getKey(), e.getValue());
        }
      }
      return rule;
    }

    String describe(Map<String, String> rule) {
      return rules.singular() + " " + String.join(" ", new ArrayList<>(rule.values()));
    }
  }

  @Command(
      name = "grant",
      mixinStandardHelpOptions = true,
      header = "Add a rule.",
      description =
          "Add a rule (policies need rbac.policy.manage, groupings rbac.assignment.manage).",
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl rbac policies grant -t acme --subject role:reader \\",
        "      --object 'stream:acme/*' --action stream.subscribe",
        "  cpctl rbac groupings grant -t acme --principal group:ops --role role:tenant-admin"
      })
  static final class GrantRule extends RuleChange {
    @Override
    protected int execute() {
      Session session = session();
      String t = session.tenant(tenant.tenant);
      Map<String, String> rule = rule();
      ObjectNode body = Printer.JSON.valueToTree(rule);
      var response = session.api().send(Call.of("POST", url(t)).body(body).tenant(t));
      session
          .out()
          .println(describe(rule) + (response.status() == 201 ? " granted" : " already granted"));
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Remove a rule.",
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl rbac policies revoke -t acme --subject role:reader \\",
        "      --object 'stream:acme/*' --action stream.subscribe",
        "  cpctl rbac groupings revoke -t acme --principal group:ops --role role:tenant-admin"
      })
  static final class RevokeRule extends RuleChange {
    @Override
    protected int execute() {
      Session session = session();
      String t = session.tenant(tenant.tenant);
      Map<String, String> rule = rule();
      Call call = Call.of("DELETE", url(t)).tenant(t);
      rule.forEach(call::query);
      session.api().send(call);
      session.out().println(describe(rule) + " revoked");
      return ExitCodes.OK;
    }
  }
}

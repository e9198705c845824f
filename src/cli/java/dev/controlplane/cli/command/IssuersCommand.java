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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cpctl issuers}: the upstream OIDC issuers a tenant trusts for the token exchange. */
@Command(
    name = "issuers",
    header = "List, set and delete trusted OIDC issuers.",
    mixinStandardHelpOptions = true,
    description = "The upstream OIDC issuers a tenant trusts (tenant.manage).",
    subcommands = {
      IssuersCommand.ListIssuers.class,
      IssuersCommand.Set.class,
      IssuersCommand.Delete.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl issuers list -t acme",
      "  cpctl issuers set https://login.example.com/ -t acme --audience controlplane \\",
      "      --discovery-url https://login.example.com/.well-known/openid-configuration",
      "  cpctl issuers delete https://login.example.com/ -t acme"
    })
public final class IssuersCommand extends GroupCommand {

  static String path(String tenant) {
    return "/v1/tenants/" + tenant + "/idp-issuers";
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the tenant's issuers.",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl issuers list -t acme -o yaml")
  static final class ListIssuers extends BaseCommand {
    @Mixin TenantOption tenant;

    @Mixin OutputOption output;

    @Override
    protected int execute() {
      Session session = session();
      String t = session.tenant(tenant.tenant);
      JsonNode reply = session.api().send(Call.of("GET", path(t)).tenant(t)).body();
      if (Render.structured(session, reply, output.format)) {
        return ExitCodes.OK;
      }
      Table table = new Table("ISSUER", "AUDIENCES", "KEYS FROM", "SUBJECT-CLAIM", "GROUPS-CLAIM");
      for (JsonNode i : reply.path("idp_issuers")) {
        List<String> audiences = new ArrayList<>();
        i.path("audiences").forEach(a -> audiences.add(a.asText()));
        table.row(
            i.path("issuer").asText(),
            String.join(",", audiences),
            i.path("discovery_url").asText(i.path("jwks_url").asText()),
            i.path("claim_mappings").path("subject_claim").asText(),
            i.path("claim_mappings").path("groups_claim").asText());
      }
      table.print(session.out());
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "set",
      header = "Add an issuer or replace its record.",
      mixinStandardHelpOptions = true,
      description =
          "Add an issuer, or replace its record: its audiences and where its keys are (discovery"
              + " or JWKS URL). Claim mappings not given keep the issuer's current ones.",
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl issuers set https://login.example.com/ -t acme --audience controlplane \\",
        "      --jwks-url https://login.example.com/keys --groups-claim groups"
      })
  static final class Set extends BaseCommand {
    @Parameters(
        index = "0",
        paramLabel = "ISSUER",
        description = "The issuer URL (the tokens' iss).")
    String issuer;

    @Mixin TenantOption tenant;

    @Option(
        names = "--audience",
        split = ",",
        required = true,
        paramLabel = "AUD",
        description = "Accepted audiences.")
    List<String> audiences;

    @Option(
        names = "--discovery-url",
        paramLabel = "URL",
        description = "OpenID discovery document.")
    String discoveryUrl;

    @Option(
        names = "--jwks-url",
        paramLabel = "URL",
        description = "JWKS URL (instead of discovery).")
    String jwksUrl;

    @Option(
        names = "--subject-claim",
        paramLabel = "CLAIM",
        description = "Claim naming the subject (default sub).")
    String subjectClaim;

    @Option(
        names = "--groups-claim",
        paramLabel = "CLAIM",
        description = "Claim listing the groups (\"\" for none).")
    String groupsClaim;

    @Option(
        names = "--groups-prefix",
        paramLabel = "PREFIX",
        description =
            "Prefix of the issuer's group subjects: group:<PREFIX><name> (\"\" for none).")
    String groupsPrefix;

    @Override
    protected int execute() {
      if ((discoveryUrl == null) == (jwksUrl == null)) {
        throw CliException.usage("give exactly one of --discovery-url and --jwks-url");
      }
      Session session = session();
      String t = session.tenant(tenant.tenant);
      ObjectNode record = Printer.JSON.createObjectNode();
      record.put("issuer", issuer);
      audiences.forEach(record.putArray("audiences")::add);
      if (discoveryUrl != null) {
        record.put("discovery_url", discoveryUrl);
      } else {
        record.put("jwks_url", jwksUrl);
      }
      ObjectNode claims = currentClaims(session, t, issuer);
      if (subjectClaim != null) {
        claims.put("subject_claim", subjectClaim);
      }
      if (groupsClaim != null) {
        if (groupsClaim.isEmpty()) {
          claims.putNull("groups_claim");
        } else {
          claims.put("groups_claim", groupsClaim);
        }
      }
      if (groupsPrefix != null) {
        claims.put("groups_prefix", groupsPrefix);
      }
      if (!claims.isEmpty()) {
        record.set("claim_mappings", claims);
      }
      var response = session.api().send(Call.of("POST", path(t)).body(record).tenant(t));
      session
          .out()
          .println("issuer " + issuer + (response.status() == 201 ? " created" : " updated"));
      return ExitCodes.OK;
    }
  }

  /**
   * The claim mappings the issuer has now, which {@code set} keeps where no option changes them:
   * replacing them with their defaults whenever an audience changed cleared a groups_prefix, which
   * renames every group subject of the issuer and leaves its RBAC grants matching nobody.
   */
  private static ObjectNode currentClaims(Session session, String tenant, String issuer) {
    ObjectNode claims = Printer.JSON.createObjectNode();
    JsonNode reply = session.api().send(Call.of("GET", path(tenant)).tenant(tenant)).body();
    for (JsonNode known : reply.path("idp_issuers")) {
      if (known.path("issuer").asText().equals(issuer) && known.path("claim_mappings").isObject()) {
        claims.setAll((ObjectNode) known.path("claim_mappings"));
      }
    }
    return claims;
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description = "Stop trusting an issuer.",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl issuers delete https://login.example.com/ -t acme")
  static final class Delete extends BaseCommand {
    @Parameters(index = "0", paramLabel = "ISSUER")
    String issuer;

    @Mixin TenantOption tenant;

    @Override
    protected int execute() {
      Session session = session();
      String t = session.tenant(tenant.tenant);
      String encoded = URLEncoder.encode(issuer, StandardCharsets.UTF_8).replace("+", "%20");
      session.api().send(Call.of("DELETE", path(t) + "/" + encoded).tenant(t));
      session.out().println("issuer " + issuer + " deleted");
      return ExitCodes.OK;
    }
  }
}

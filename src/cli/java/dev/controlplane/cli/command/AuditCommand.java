package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.ApiClient.Call;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.TenantOption;
import dev.controlplane.cli.output.Render;
import dev.controlplane.cli.output.Table;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cpctl audit}: the audit log, newest first. */
@Command(
    name = "audit",
    header = "Show the audit log, newest first.",
    mixinStandardHelpOptions = true,
    description = {
      "Who did what, from where, with what result: a tenant's records (a service token needs"
          + " audit.view or rbac.view), or with --all-tenants every record, those of no tenant"
          + " included (operator credential only)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  cpctl audit -t acme --since 1h",
      "  cpctl audit -t acme --operation token.exchange --limit 20",
      "  cpctl audit --all-tenants --principal operator --since 1d -o json",
      "  cpctl audit -t acme --since 2026-11-24T08:00:00Z --until 2026-11-24T09:00:00Z"
    })
public final class AuditCommand extends BaseCommand {

  /** The server's largest page. */
  static final int MAX_PAGE = 1000;

  private static final Pattern AGO = Pattern.compile("(\\d{1,9})([smhd])");

  @Mixin TenantOption tenant;

  @Option(
      names = "--all-tenants",
      description = "Every record, of every tenant and of none (operator credential only).")
  boolean allTenants;

  @Option(
      names = "--since",
      paramLabel = "TIME",
      description =
          "Records at or after TIME: RFC 3339 (2026-11-24T08:00:00Z) or an age such as 90s, 15m,"
              + " 2h, 7d.")
  String since;

  @Option(
      names = "--until",
      paramLabel = "TIME",
      description = "Records before TIME, written like --since.")
  String until;

  @Option(names = "--principal", paramLabel = "ID", description = "Only this principal's records.")
  String principal;

  @Option(
      names = "--operation",
      paramLabel = "OP",
      description = "Only records of this operation (stream.create, token.exchange, ...).")
  String operation;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "100",
      description = "At most N records, newest first. Default: ${DEFAULT-VALUE}.")
  int limit;

  @Mixin OutputOption output;

  Clock clock = Clock.systemUTC();

  @Override
  protected int execute() {
    if (limit < 1) {
      throw CliException.usage("--limit must be at least 1, not " + limit);
    }
    if (allTenants && tenant.tenant != null) {
      throw CliException.usage(
          "--all-tenants and --tenant exclude each other: --tenant shows one tenant's records");
    }
    String from = since == null ? null : instant("--since", since);
    String to = until == null ? null : instant("--until", until);
    Session session = session();
    String t = allTenants ? null : session.tenant(tenant.tenant);
    String path = t == null ? "/v1/audit" : "/v1/tenants/" + t + "/audit";
    ArrayNode records = JsonNodeFactory.instance.arrayNode();
    String token = null;
    do {
      JsonNode page =
          session
              .api()
              .send(
                  Call.of("GET", path)
                      .query("limit", Integer.toString(Math.min(MAX_PAGE, limit - records.size())))
                      .query("page_token", token)
                      .query("since", from)
                      .query("until", to)
                      .query("principal", principal)
                      .query("operation", operation)
                      .tenant(t))
              .body();
      page.path("records").forEach(records::add);
      token = page.path("next_page_token").asText("");
    } while (!token.isEmpty() && records.size() < limit);
    ObjectNode list = JsonNodeFactory.instance.objectNode();
    list.set("records", records);
    if (!Render.structured(session, list, output.format)) {
      print(session, records, t == null);
    }
    return ExitCodes.OK;
  }

  private static void print(Session session, ArrayNode records, boolean withTenant) {
    if (records.isEmpty()) {
      session.err().println("No audit record found.");
      session.err().flush();
      return;
    }
    Table table =
        withTenant
            ? new Table("TIME", "TENANT", "PRINCIPAL", "OPERATION", "RESOURCE", "RESULT", "VERSION")
            : new Table("TIME", "PRINCIPAL", "OPERATION", "RESOURCE", "RESULT", "VERSION");
    for (JsonNode r : records) {
      String result =
          r.path("reason").isTextual()
              ? r.path("result").asText() + " (" + r.path("reason").asText() + ")"
              : r.path("result").asText();
      String tenant = r.path("tenant").isTextual() ? r.path("tenant").asText() : "-";
      String resource = r.path("resource").isTextual() ? r.path("resource").asText() : "-";
      String version = r.path("version").isNumber() ? r.path("version").asText() : "-";
      String who = r.path("principal").asText() + " (" + r.path("principal_type").asText() + ")";
      String time = r.path("timestamp").asText();
      String op = r.path("operation").asText();
      if (withTenant) {
        table.row(time, tenant, who, op, resource, result, version);
      } else {
        table.row(time, who, op, resource, result, version);
      }
    }
    table.print(session.out());
  }

  /**
   * {@code text} as the RFC 3339 instant the server takes: given as one, or as an age before now.
   */
  String instant(String option, String text) {
    Matcher ago = AGO.matcher(text.trim());
    if (ago.matches()) {
      long n = Long.parseLong(ago.group(1));
      Duration age =
          switch (ago.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
      return Instant.now(clock).minus(age).toString();
    }
    try {
      return OffsetDateTime.parse(text.trim()).toInstant().toString();
    } catch (DateTimeParseException e) {
      throw CliException.usage(
          option
              + " "
              + text
              + ": not a time; give RFC 3339 with an offset (2026-11-24T08:00:00Z) or an age"
              + " (90s, 15m, 2h, 7d)");
    }
  }
}

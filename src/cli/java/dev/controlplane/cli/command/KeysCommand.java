package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.GroupCommand;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.ApiClient.Call;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.TenantOption;
import dev.controlplane.cli.output.Render;
import dev.controlplane.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cpctl keys}: a tenant's signing keys. */
@Command(
    name = "keys",
    header = "List and rotate a tenant's signing keys.",
    mixinStandardHelpOptions = true,
    description = "A tenant's Ed25519 signing keys: list them, publish the next one now.",
    subcommands = {KeysCommand.ListKeys.class, KeysCommand.Rotate.class},
    footerHeading = "%nExamples:%n",
    footer = {"  cpctl keys list -t acme", "  cpctl keys rotate -t acme"})
public final class KeysCommand extends GroupCommand {

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the keys and their states (active, next, passive, retired).",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl keys list -t acme -o json")
  static final class ListKeys extends BaseCommand {
    @Mixin TenantOption tenant;

    @Mixin OutputOption output;

    @Override
    protected int execute() {
      Session session = session();
      String t = session.tenant(tenant.tenant);
      JsonNode reply =
          session.api().send(Call.of("GET", "/v1/tenants/" + t + "/signing-keys").tenant(t)).body();
      if (!Render.structured(session, reply, output.format)) {
        table(reply.path("keys")).print(session.out());
      }
      return ExitCodes.OK;
    }
  }

  /** The keys as a table (also in {@code describe tenant}). */
  static Table table(JsonNode keys) {
    Table table = new Table("KID", "STATE", "ACTIVATE-AFTER", "RETIRE-AFTER");
    for (JsonNode k : keys) {
      table.row(
          k.path("kid").asText(),
          k.path("state").asText(),
          k.path("activate_after").asText(),
          k.path("retire_after").asText());
    }
    return table;
  }

  @Command(
      name = "rotate",
      header = "Publish the tenant's next signing key now.",
      mixinStandardHelpOptions = true,
      description = {
        "Publish the next key now. It starts signing once every JWKS cache can have seen it"
            + " (activate_after); the current key keeps verifying until its last token expires."
      },
      footerHeading = "%nExamples:%n",
      footer = "  cpctl keys rotate -t acme")
  static final class Rotate extends BaseCommand {
    @Mixin TenantOption tenant;

    @Override
    protected int execute() {
      Session session = session();
      String t = session.tenant(tenant.tenant);
      JsonNode key =
          session
              .api()
              .send(Call.of("POST", "/v1/tenants/" + t + "/signing-keys/rotate").tenant(t))
              .body();
      session
          .out()
          .println(
              "key "
                  + key.path("kid").asText()
                  + " published as "
                  + key.path("state").asText()
                  + "; it signs from "
                  + key.path("activate_after").asText());
      return ExitCodes.OK;
    }
  }
}

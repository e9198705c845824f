package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.GroupCommand;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.config.ContextConfig;
import dev.controlplane.cli.option.OutputOption;
import dev.controlplane.cli.option.TenantOption;
import dev.controlplane.cli.output.Printer;
import dev.controlplane.cli.output.Render;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cpctl token}: the token exchange. */
@Command(
    name = "token",
    header = "Exchange an upstream OIDC token for a service token.",
    mixinStandardHelpOptions = true,
    description = "Service tokens: exchange an upstream OIDC token for one.",
    subcommands = TokenCommand.Exchange.class,
    footerHeading = "%nExamples:%n",
    footer = "  cpctl token exchange -t acme --upstream-token-file id-token.jwt")
public final class TokenCommand extends GroupCommand {

  @Command(
      name = "exchange",
      header = "Exchange an upstream OIDC token for a service token.",
      mixinStandardHelpOptions = true,
      description = {
        "Exchange an upstream OIDC token (from --upstream-token-file, --upstream-token-env, or"
            + " the context's token-command) for a service token of the tenant"
            + " (POST /v1/tenants/{tenant}/token/exchange). Prints the token, or with --store"
            + " keeps it in the current context, which then uses it for that tenant until it"
            + " expires. --requested and --resources narrow the token's permissions."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl token exchange -t acme --upstream-token-file id-token.jwt",
        "  oidc-login --print | cpctl token exchange -t acme --upstream-token-file - --store",
        "  cpctl token exchange -t acme --requested stream.publish \\",
        "      --resources 'stream:acme/payments/*' -o json"
      })
  static final class Exchange extends BaseCommand {
    @Mixin TenantOption tenant;

    @Option(
        names = "--upstream-token-file",
        paramLabel = "FILE",
        description = "File holding the upstream token; - for stdin.")
    String upstreamFile;

    @Option(
        names = "--upstream-token-env",
        paramLabel = "VAR",
        description = "Environment variable holding it.")
    String upstreamEnv;

    @Option(
        names = "--requested",
        split = ",",
        paramLabel = "ACTION",
        description = "Actions to ask for, e.g. stream.publish.")
    List<String> requested;

    @Option(
        names = "--resources",
        split = ",",
        paramLabel = "OBJECT",
        description = "Objects to ask for, e.g. stream:acme/payments/*.")
    List<String> resources;

    @Option(
        names = "--store",
        description = "Keep the token in the current context instead of printing it.")
    boolean store;

    @Mixin OutputOption output;

    @Override
    protected int execute() {
      Session session = session();
      String t = session.tenant(tenant.tenant);
      ObjectNode hints = Printer.JSON.createObjectNode();
      if (requested != null) {
        requested.forEach(hints.putArray("requested")::add);
      }
      if (resources != null) {
        resources.forEach(hints.putArray("resources")::add);
      }
      JsonNode reply = session.api().exchange(t, upstream(session), hints).body();
      if (store) {
        return stored(session, t, reply);
      }
      if (!Render.structured(session, reply, output.format)) {
        session.out().println(reply.path("service_token").asText());
      }
      return ExitCodes.OK;
    }

    private String upstream(Session session) {
      if (upstreamFile != null) {
        try {
          byte[] bytes =
              upstreamFile.equals("-")
                  ? session.stdin().readAllBytes()
                  : Files.readAllBytes(Path.of(upstreamFile));
          return new String(bytes, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
          throw CliException.usage("cannot read " + upstreamFile + ": " + e.getMessage());
        }
      }
      if (upstreamEnv != null) {
        String value = session.env().get(upstreamEnv);
        if (value == null || value.isBlank()) {
          throw CliException.usage(upstreamEnv + " is not set");
        }
        return value.strip();
      }
      return session
          .credentials()
          .upstreamToken()
          .orElseThrow(
              () ->
                  CliException.usage(
                      "no upstream token: give --upstream-token-file or --upstream-token-env, or set the context's --token-command"));
    }

    private int stored(Session session, String t, JsonNode reply) {
      String name = session.target().contextName();
      if (session.config().context(name).isEmpty()) {
        throw CliException.config("--store needs a context (cpctl config set-context)");
      }
      ContextConfig context = session.config().contextForUpdate(name);
      long ttl = reply.path("expires_in").asLong();
      context.credentials.serviceToken = reply.path("service_token").asText();
      context.credentials.serviceTokenTenant = t;
      context.credentials.serviceTokenExpires = Instant.now().plusSeconds(ttl).toString();
      session.saveConfig();
      session
          .out()
          .println(
              "service token of tenant "
                  + t
                  + " stored in context "
                  + name
                  + " (expires in "
                  + ttl
                  + "s)");
      return ExitCodes.OK;
    }
  }
}

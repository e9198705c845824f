package dev.controlplane.cli.client;

import dev.controlplane.cli.CliException;
import dev.controlplane.cli.config.CredentialsConfig;
import dev.controlplane.cli.config.Target;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The bearer token of a request. In order: {@code CPCTL_TOKEN}; the context's operator token; its
 * stored service token (when it belongs to the request's tenant and has not expired); a service
 * token exchanged for the output of its {@code token-command} (once per tenant and run).
 */
public final class Credentials {

  /** Exchanges an upstream token for a service token of a tenant (the HTTP token exchange). */
  public interface Exchanger {
    String serviceToken(String tenant, String upstreamToken);
  }

  private final Target target;
  private final Map<String, String> exchanged = new ConcurrentHashMap<>();
  private volatile Exchanger exchanger;

  public Credentials(Target target) {
    this.target = target;
  }

  public void exchangeWith(Exchanger exchanger) {
    this.exchanger = exchanger;
  }

  /** The bearer token for a request about {@code tenant} (null when it concerns no tenant). */
  public String bearer(String tenant) {
    Optional<String> fixed = target.envToken().or(target::operatorToken);
    if (fixed.isPresent()) {
      return fixed.get();
    }
    CredentialsConfig c = target.credentials();
    String wanted = tenant != null ? tenant : target.tenant().orElse(null);
    if (c.serviceToken != null && storedTokenUsable(c, wanted)) {
      return c.serviceToken;
    }
    if (c.tokenCommand != null) {
      if (wanted == null) {
        throw CliException.config(
            "the context's token-command gives tenant service tokens: set a tenant"
                + " (--tenant, CPCTL_TENANT or the context's tenant)");
      }
      return exchanged.computeIfAbsent(
          wanted, t -> exchanger.serviceToken(t, upstreamToken().orElseThrow()));
    }
    throw CliException.config(
        "context "
            + target.contextName()
            + " has no usable credential"
            + (c.serviceToken != null
                ? " (its stored service token is expired or for tenant "
                    + c.serviceTokenTenant
                    + ")"
                : "")
            + ": set CPCTL_TOKEN, or configure one with cpctl config set-context");
  }

  /**
   * The bearer token of the gRPC metadata reads (snapshot, watch): the broker credential; none when
   * a client certificate identifies the caller instead (a cluster that requires mutual TLS accepts
   * no broker token); else the bearer token of {@link #bearer}, which that service refuses with a
   * hint.
   */
  public Optional<String> metadataBearer() {
    Optional<String> broker = target.brokerToken();
    if (broker.isPresent() || target.clientCertificate().isPresent()) {
      return broker;
    }
    if (target.envToken().or(target::operatorToken).isEmpty()
        && target.credentials().serviceToken == null
        && target.credentials().tokenCommand == null) {
      throw CliException.config(
          "snapshot and watch need the broker credential: a broker token (CPCTL_BROKER_TOKEN, or"
              + " the context's broker-token or broker-token-env) or, where the cluster requires"
              + " mutual TLS, a broker's certificate (CPCTL_CLIENT_CERT and CPCTL_CLIENT_KEY, or"
              + " the context's client-cert and client-key)");
    }
    return Optional.of(bearer(null));
  }

  private static boolean storedTokenUsable(CredentialsConfig c, String tenant) {
    boolean sameTenant = tenant == null || tenant.equals(c.serviceTokenTenant);
    boolean fresh =
        c.serviceTokenExpires == null
            || Instant.parse(c.serviceTokenExpires).isAfter(Instant.now());
    return sameTenant && fresh;
  }

  /** The upstream token printed by the context's token-command, when it has one. */
  public Optional<String> upstreamToken() {
    String command = target.credentials().tokenCommand;
    if (command == null) {
      return Optional.empty();
    }
    try {
      Process process =
          new ProcessBuilder("sh", "-c", command)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw CliException.config("token-command failed: " + command);
      }
      String token = out.strip();
      if (token.isEmpty()) {
        throw CliException.config("token-command printed no token: " + command);
      }
      return Optional.of(token);
    } catch (IOException e) {
      throw CliException.config("cannot run token-command " + command + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.config("interrupted while running token-command");
    }
  }
}

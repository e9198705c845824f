package dev.controlplane.cli.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How a context authenticates. Secrets may be stored here (the file is written mode 600), or named
 * by environment variable ({@code *-env}) so that the file holds none.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public final class CredentialsConfig {

  /** The platform operator's break-glass token, literally. */
  @JsonProperty("operator-token")
  public String operatorToken;

  /** The name of the environment variable holding the operator token. */
  @JsonProperty("operator-token-env")
  public String operatorTokenEnv;

  /** A shell command printing an upstream OIDC token, exchanged for a service token when needed. */
  @JsonProperty("token-command")
  public String tokenCommand;

  /** A service token stored by {@code cpctl token exchange --store}. */
  @JsonProperty("service-token")
  public String serviceToken;

  /** The tenant the stored service token belongs to. */
  @JsonProperty("service-token-tenant")
  public String serviceTokenTenant;

  /** When the stored service token expires (ISO-8601 instant). */
  @JsonProperty("service-token-expires")
  public String serviceTokenExpires;

  /** The broker credential, for snapshot and watch (gRPC MetadataService accepts only it). */
  @JsonProperty("broker-token")
  public String brokerToken;

  /** The name of the environment variable holding the broker credential. */
  @JsonProperty("broker-token-env")
  public String brokerTokenEnv;

  /** A short description of what is configured, without any secret. */
  public String describe() {
    StringBuilder out = new StringBuilder();
    append(out, operatorToken != null, "operator-token");
    append(out, operatorTokenEnv != null, "operator-token-env=" + operatorTokenEnv);
    append(out, tokenCommand != null, "token-command");
    append(out, serviceToken != null, "service-token(" + serviceTokenTenant + ")");
    append(out, brokerToken != null, "broker-token");
    append(out, brokerTokenEnv != null, "broker-token-env=" + brokerTokenEnv);
    return out.length() == 0 ? "none" : out.toString();
  }

  private static void append(StringBuilder out, boolean present, String what) {
    if (present) {
      out.append(out.length() == 0 ? "" : ",").append(what);
    }
  }

  /** A copy with every literal secret replaced, for {@code config view}. */
  CredentialsConfig redacted() {
    CredentialsConfig copy = new CredentialsConfig();
    copy.operatorToken = redact(operatorToken);
    copy.operatorTokenEnv = operatorTokenEnv;
    copy.tokenCommand = tokenCommand;
    copy.serviceToken = redact(serviceToken);
    copy.serviceTokenTenant = serviceTokenTenant;
    copy.serviceTokenExpires = serviceTokenExpires;
    copy.brokerToken = redact(brokerToken);
    copy.brokerTokenEnv = brokerTokenEnv;
    return copy;
  }

  private static String redact(String secret) {
    return secret == null ? null : "REDACTED";
  }
}

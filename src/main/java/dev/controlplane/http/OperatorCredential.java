package dev.controlplane.http;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The platform operator's credential for metadata writes over HTTP ({@code
 * SERVICE_CONTROLPLANE_OPERATOR_TOKEN}, sent as a bearer token and compared in constant time).
 * Without it configured, HTTP metadata writes are refused.
 */
@ApplicationScoped
public class OperatorCredential {

  @Inject ControlPlaneConfig config;

  void require(HttpHeaders headers) {
    String presented = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
    byte[] expected =
        config
            .operatorToken()
            .map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8))
            .orElseThrow(() -> new ControlPlaneException(ErrorCode.INVALID_TOKEN, "metadata writes are disabled: no operator credential is configured"));
    if (presented == null || !MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8))) {
      throw new ControlPlaneException(ErrorCode.INVALID_TOKEN, "missing or invalid bearer token");
    }
  }
}

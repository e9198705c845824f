package dev.controlplane.auth;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;

/** A credential that failed validation: always 401 / invalid_token, the reason safe to show. */
public final class TokenRejected extends ControlPlaneException {

  public TokenRejected(String reason) {
    super(ErrorCode.INVALID_TOKEN, reason);
  }
}

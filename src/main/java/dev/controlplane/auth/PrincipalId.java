package dev.controlplane.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The principal id of decisions.md: lowercase hex SHA-256 over the UTF-8 string {@code iss + "|" +
 * sub}.
 */
public final class PrincipalId {

  private PrincipalId() {}

  public static String of(String issuer, String subject) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((issuer + "|" + subject).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable", e);
    }
  }
}

package dev.controlplane.http;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A random token known only to this process. {@link ListenerCheckFilter} echoes it, so that {@link
 * HttpListenerCheck} can tell this node's HTTP listener from another process on the same port.
 */
@ApplicationScoped
public class ListenerIdentity {

  public static final String HEADER = "X-Controlplane-Listener-Check";

  private final String token;

  public ListenerIdentity() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    this.token = HexFormat.of().formatHex(bytes);
  }

  public String token() {
    return token;
  }
}

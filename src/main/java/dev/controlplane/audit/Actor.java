package dev.controlplane.audit;

import dev.controlplane.metadata.model.Text;

/**
 * Who asks, as far as the service knows: the principal and its kind, and where the request came
 * from. Adapters build it (HTTP: the connection's remote address, never {@code X-Forwarded-For};
 * gRPC: the transport's remote address and the {@code user-agent} header); the domain only carries
 * it.
 *
 * @param principal a principal id (service tokens), a broker name, {@code operator}, {@code
 *     bootstrap}, the node's own name for its duties, or {@code anonymous} before authentication
 * @param principalType {@code user}, {@code operator}, {@code broker}, {@code bootstrap}, {@code
 *     system} or {@code anonymous}
 */
public record Actor(String principal, String principalType, String sourceIp, String userAgent) {

  public static final String USER = "user";
  public static final String OPERATOR = "operator";
  public static final String BROKER = "broker";
  public static final String BOOTSTRAP = "bootstrap";
  public static final String SYSTEM = "system";
  public static final String ANONYMOUS = "anonymous";

  /** The service itself (leader duties: key rotation, failure detection, purges). */
  public static final Actor SERVICE = new Actor("controlplane", SYSTEM, null, null);

  private static final int MAX_AGENT = 256;

  /** A request not yet authenticated, from {@code sourceIp} with {@code userAgent}. */
  public static Actor anonymous(String sourceIp, String userAgent) {
    return new Actor(ANONYMOUS, ANONYMOUS, sourceIp, clip(userAgent));
  }

  /** The same origin, now known as {@code principal}. */
  public Actor as(String principal, String principalType) {
    return new Actor(principal, principalType, sourceIp, userAgent);
  }

  /**
   * At most {@value #MAX_AGENT} characters, one line: a NUL in a {@code User-Agent} made the
   * database refuse the write it came with, and every exchange record batched with it.
   */
  private static String clip(String text) {
    return Text.asLine(
        text == null || text.length() <= MAX_AGENT ? text : text.substring(0, MAX_AGENT));
  }
}

package dev.controlplane.config;

import dev.controlplane.metadata.model.DurationValue;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * Parses setting values with errors an operator can act on: each names the environment variable,
 * the value and where the value came from (environment, system property, configuration file).
 * Settings are injected as strings and parsed here, so a bad value never fails CDI deployment
 * (which Liberty survives with a live server serving nothing) but stops the start with one line.
 */
public final class Settings {

  private Settings() {}

  /** {@code service.controlplane.grpc.port} is {@code SERVICE_CONTROLPLANE_GRPC_PORT}. */
  public static String envName(String property) {
    return property.toUpperCase(Locale.ROOT).replace('.', '_');
  }

  public static long integer(String property, String text, long min, long max) {
    long value;
    try {
      value = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(property, text, "is not an integer");
    }
    if (value < min || value > max) {
      throw invalid(property, text, "is not between " + min + " and " + max);
    }
    return value;
  }

  public static int port(String property, String text) {
    return (int) integer(property, text, 1, 65535);
  }

  /**
   * {@code host:port} (an IPv6 host in brackets), unresolved: resolving is the binder's job. A
   * value that does not parse throws {@link MalformedAddress}, whose message says what is wrong
   * without naming a setting, so each caller words it for its own.
   */
  public static InetSocketAddress hostAndPort(String text) {
    String value = text.trim();
    int colon = value.lastIndexOf(':');
    if (colon <= 0) {
      throw new MalformedAddress("'" + value + "' has no port");
    }
    String host = value.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.isEmpty() || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
      throw new MalformedAddress("'" + value + "' has no host");
    }
    int port;
    try {
      port = Integer.parseInt(value.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new MalformedAddress("'" + value + "' has no numeric port");
    }
    if (port < 1 || port > 65535) {
      throw new MalformedAddress("port " + port + " is out of range");
    }
    return InetSocketAddress.createUnresolved(host, port);
  }

  /** A {@code host:port} that does not parse; the message says why. */
  public static final class MalformedAddress extends IllegalArgumentException {
    MalformedAddress(String why) {
      super(why);
    }
  }

  /** Only {@code true} or {@code false} (any case): a typo must not silently mean false. */
  public static boolean bool(String property, String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    if (!value.equals("true") && !value.equals("false")) {
      throw invalid(property, text, "is not true or false");
    }
    return value.equals("true");
  }

  public static Duration duration(String property, String text) {
    return DurationValue.parse(text.trim())
        .map(DurationValue::toDuration)
        .orElseThrow(() -> invalid(property, text, "is not " + DurationValue.GRAMMAR));
  }

  /** A duration above zero: a period of a schedule, a timeout, a retention. */
  public static Duration positiveDuration(String property, String text) {
    Duration d = duration(property, text);
    if (d.isZero() || d.isNegative()) {
      throw invalid(property, text, "is not positive");
    }
    return d;
  }

  /** A failure of a setting whose value parsed but is not allowed, worded the same way. */
  public static InvalidSettingException invalid(String property, String text, String problem) {
    return new InvalidSettingException(
        envName(property) + " = '" + text + "'" + origin(property) + " " + problem);
  }

  /** Where the value came from, for the message: " (from the environment)" and the like. */
  static String origin(String property) {
    try {
      ConfigValue value = ConfigProvider.getConfig().getConfigValue(property);
      String source = value == null ? null : value.getSourceName();
      if (source == null) {
        return "";
      }
      if (source.startsWith("EnvConfigSource")) {
        return " (from the environment)";
      }
      if (source.startsWith("SysPropConfigSource")) {
        return " (from system property " + property + ")";
      }
      return " (from " + source + ")";
    } catch (RuntimeException | LinkageError e) {
      return ""; // no MicroProfile Config here (unit tests): the name and value still say enough
    }
  }
}

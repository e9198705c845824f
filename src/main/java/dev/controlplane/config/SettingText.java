package dev.controlplane.config;

import java.time.Duration;
import java.util.Locale;

/** Parsing of setting text with errors naming the environment variable. */
final class SettingText {

  private SettingText() {}

  static String envName(String property) {
    return property.toUpperCase(Locale.ROOT).replace('.', '_');
  }

  static boolean bool(String property, String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    if (!value.equals("true") && !value.equals("false")) {
      throw invalid(property, text, "is not true or false");
    }
    return value.equals("true");
  }

  static Duration duration(String property, String text) {
    return ControlPlaneConfig.duration(envName(property), text.trim());
  }

  static IllegalArgumentException invalid(String property, String text, String problem) {
    return new IllegalArgumentException(envName(property) + " = '" + text + "' " + problem);
  }
}

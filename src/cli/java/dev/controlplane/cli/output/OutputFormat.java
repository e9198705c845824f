package dev.controlplane.cli.output;

import java.util.Locale;

/** {@code -o}: a table for people (the default, like kubectl), YAML or JSON for tools. */
public enum OutputFormat {
  TABLE,
  YAML,
  JSON,
  /** One {@code kind/name} per line, for scripts. */
  NAME;

  /** picocli converter: case-insensitive; {@code wide} is not offered. */
  public static OutputFormat parse(String text) {
    return valueOf(text.trim().toUpperCase(Locale.ROOT));
  }
}

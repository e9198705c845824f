package dev.controlplane.metadata.model;

import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses "an integer followed by a unit" into the integer times the unit's factor, overflow-safe.
 */
final class Quantity {

  private Quantity() {}

  static OptionalLong parse(String text, Pattern format, Map<String, Long> factors) {
    if (text == null) {
      return OptionalLong.empty();
    }
    Matcher m = format.matcher(text);
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(
          Math.multiplyExact(Long.parseLong(m.group(1)), factors.get(m.group(2))));
    } catch (ArithmeticException overflow) {
      return OptionalLong.empty();
    }
  }
}

package dev.controlplane.metadata.model;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as written by a user ({@code 7d}, {@code 500ms}) together with its normalised value.
 * The text is kept so that resources are returned in the form they were given.
 */
public record DurationValue(String text, long millis) {

  private static final Pattern FORMAT = Pattern.compile("^([0-9]{1,15})(ms|s|m|h|d|w)$");

  public static Optional<DurationValue> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    Matcher m = FORMAT.matcher(text);
    if (!m.matches()) {
      return Optional.empty();
    }
    long amount = Long.parseLong(m.group(1));
    long unit =
        switch (m.group(2)) {
          case "ms" -> 1L;
          case "s" -> 1_000L;
          case "m" -> 60_000L;
          case "h" -> 3_600_000L;
          case "d" -> 86_400_000L;
          default -> 604_800_000L;
        };
    try {
      return Optional.of(new DurationValue(text, Math.multiplyExact(amount, unit)));
    } catch (ArithmeticException overflow) {
      return Optional.empty();
    }
  }

  public static DurationValue of(String text) {
    return parse(text)
        .orElseThrow(() -> new IllegalArgumentException("not a duration: " + text));
  }

  public java.time.Duration toDuration() {
    return java.time.Duration.ofMillis(millis);
  }

  public static final String GRAMMAR = "an integer followed by ms, s, m, h, d or w (for example 7d)";
}

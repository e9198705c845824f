package dev.controlplane.metadata.model;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * A duration as written by a user ({@code 7d}, {@code 500ms}) together with its normalised value.
 * The text is kept so that resources are returned in the form they were given.
 */
public record DurationValue(String text, long millis) {

  private static final Pattern FORMAT = Pattern.compile("^([0-9]{1,15})(ms|s|m|h|d|w)$");

  private static final Map<String, Long> MILLIS =
      Map.of(
          "ms",
          1L,
          "s",
          1_000L,
          "m",
          60_000L,
          "h",
          3_600_000L,
          "d",
          86_400_000L,
          "w",
          604_800_000L);

  public static Optional<DurationValue> parse(String text) {
    OptionalLong millis = Quantity.parse(text, FORMAT, MILLIS);
    return millis.isPresent()
        ? Optional.of(new DurationValue(text, millis.getAsLong()))
        : Optional.empty();
  }

  public static DurationValue of(String text) {
    return parse(text).orElseThrow(() -> new IllegalArgumentException("not a duration: " + text));
  }

  public java.time.Duration toDuration() {
    return java.time.Duration.ofMillis(millis);
  }

  public static final String GRAMMAR =
      "an integer followed by ms, s, m, h, d or w (for example 7d), of at most 15 digits and"
          + " below 2^63 milliseconds in all (106751991167d at most)";
}

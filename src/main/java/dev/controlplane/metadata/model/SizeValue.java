package dev.controlplane.metadata.model;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** A size as written by a user ({@code 10GB}, {@code 512MiB}) together with its value in bytes. */
public record SizeValue(String text, long bytes) {

  private static final Pattern FORMAT =
      Pattern.compile("^([0-9]{1,15})(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$");

  private static final Map<String, Long> BYTES =
      Map.of(
          "B", 1L,
          "KB", 1_000L,
          "MB", 1_000_000L,
          "GB", 1_000_000_000L,
          "TB", 1_000_000_000_000L,
          "KiB", 1L << 10,
          "MiB", 1L << 20,
          "GiB", 1L << 30,
          "TiB", 1L << 40);

  public static Optional<SizeValue> parse(String text) {
    OptionalLong bytes = Quantity.parse(text, FORMAT, BYTES);
    return bytes.isPresent()
        ? Optional.of(new SizeValue(text, bytes.getAsLong()))
        : Optional.empty();
  }

  public static final String GRAMMAR =
      "an integer followed by B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of"
          + " 1024), of at most 15 digits and below 8 EiB in all (8388607TiB at most)";
}

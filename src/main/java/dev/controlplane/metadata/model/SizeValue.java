package dev.controlplane.metadata.model;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A size as written by a user ({@code 10GB}, {@code 512MiB}) together with its value in bytes. */
public record SizeValue(String text, long bytes) {

  private static final Pattern FORMAT = Pattern.compile("^([0-9]{1,15})(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$");

  public static Optional<SizeValue> parse(String text) {
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
          case "B" -> 1L;
          case "KB" -> 1_000L;
          case "MB" -> 1_000_000L;
          case "GB" -> 1_000_000_000L;
          case "TB" -> 1_000_000_000_000L;
          case "KiB" -> 1L << 10;
          case "MiB" -> 1L << 20;
          case "GiB" -> 1L << 30;
          default -> 1L << 40;
        };
    try {
      return Optional.of(new SizeValue(text, Math.multiplyExact(amount, unit)));
    } catch (ArithmeticException overflow) {
      return Optional.empty();
    }
  }

  public static final String GRAMMAR =
      "an integer followed by B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024)";
}

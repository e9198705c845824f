package dev.controlplane.metadata.model;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * The bounds of a broker's labels (docs/api.md, RegisterBroker). Modelled on Kubernetes labels, a
 * little wider: a key may carry a {@code prefix/} and dots ({@code topology.kubernetes.io/rack}), a
 * value is free text without control characters. The bounds keep a broker document small (at most
 * about 12 KB of labels) so that snapshots and watch payloads stay cheap.
 */
public final class BrokerLabels {

  public static final int MAX_COUNT = 32;
  public static final int MAX_KEY_LENGTH = 128;
  public static final int MAX_VALUE_LENGTH = 256;

  public static final String KEY_RULE =
      "1 to "
          + MAX_KEY_LENGTH
          + " characters of A-Z a-z 0-9 . _ / -, starting and ending with a letter or digit";

  private static final Pattern KEY = Pattern.compile("^[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?$");

  private BrokerLabels() {}

  /**
   * Reports each problem of {@code labels} to {@code error} as (label key, message); the key is
   * empty for a problem of the whole map.
   */
  public static void validate(Map<String, String> labels, BiConsumer<String, String> error) {
    if (labels.size() > MAX_COUNT) {
      error.accept("", "holds " + labels.size() + " labels; at most " + MAX_COUNT + " allowed");
    }
    labels.forEach(
        (key, value) -> {
          if (key.length() > MAX_KEY_LENGTH || !KEY.matcher(key).matches()) {
            error.accept(key, "label key must be " + KEY_RULE);
          } else if (value == null || value.length() > MAX_VALUE_LENGTH) {
            error.accept(key, "label value must be at most " + MAX_VALUE_LENGTH + " characters");
          } else if (!Text.isLine(value)) {
            error.accept(key, "label value must be " + Text.LINE_RULE);
          }
        });
  }
}

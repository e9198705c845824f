package dev.controlplane.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.DoublePredicate;
import java.util.function.DoubleSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Samples of the shared server's /metrics (Prometheus text). */
public final class Metrics {

  private Metrics() {}

  /** The value of the first sample of {@code name} whose labels contain {@code label}. */
  public static double value(String name, String label) {
    return valueIn(scrape(), name, label);
  }

  /** One scrape of /metrics, to read several samples taken at the same moment. */
  public static String scrape() {
    return scrape(SharedServer.httpPort());
  }

  /** One scrape of /metrics of the node whose HTTP port is {@code port}. */
  public static String scrape(int port) {
    var reply = new Http(port, null).get("/metrics", "text/plain");
    assertThat(reply.status()).isEqualTo(200);
    return reply.body();
  }

  /** The sample {@code name} whose labels contain {@code label} in a {@link #scrape}. */
  public static double valueIn(String scrape, String name, String label) {
    Matcher m =
        Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE)
            .matcher(scrape);
    while (m.find()) {
      if (m.group(1) == null ? label.isEmpty() : m.group(1).contains(label)) {
        return Double.parseDouble(m.group(2));
      }
    }
    throw new AssertionError("no sample of " + name + " {" + label + "} in /metrics");
  }

  /** Waits up to 10 s for the sample to satisfy {@code expected}. */
  public static void await(String name, String label, DoublePredicate expected)
      throws InterruptedException {
    await(name + " {" + label + "}", () -> value(name, label), expected);
  }

  /** Waits up to 10 s for a figure read from /metrics to satisfy {@code expected}. */
  public static void await(String what, DoubleSupplier sample, DoublePredicate expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    double last = sample.getAsDouble();
    while (!expected.test(last) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      last = sample.getAsDouble();
    }
    assertThat(expected.test(last)).as(what + " = " + last).isTrue();
  }
}

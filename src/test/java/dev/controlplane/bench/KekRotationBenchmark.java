package dev.controlplane.bench;

import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.Metrics;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * What replacing the key-encryption key costs the writes (docs/security.md): {@code bench.tenants}
 * tenants, each with its signing key, are created under one key; the node restarts with a new key
 * current and the old one a fallback, and its leader duty stores the keys again, 200 per run of
 * {@code bench.checkSeconds} ({@code KekRotation.PER_STEP}). One writer meanwhile puts a namespace
 * at a steady {@code bench.rate} writes/s; the command prints its round trips before the first step
 * (the node warm), in the two seconds up to each moment the node's gauge says a step is done, and
 * after the last. Run with scripts/benchmark-kek-rotation.
 */
public final class KekRotationBenchmark {

  private static final int TENANTS = Integer.getInteger("bench.tenants", 1000);
  private static final int RATE = Integer.getInteger("bench.rate", 100);
  private static final int CHECK_SECONDS = Integer.getInteger("bench.checkSeconds", 30);
  private static final String GAUGE = "controlplane_signing_keys_to_reencrypt";

  private record Write(long atNanos, long micros) {}

  private record Node(ServerProcess process, int http) implements AutoCloseable {
    @Override
    public void close() {
      process.close();
    }
  }

  public static void main(String[] args) throws Exception {
    String db = TestDatabase.url(System.getProperty("bench.db", "controlplane_bench_kek"));
    TestDatabase.reset(db);
    String oldKey = randomKey();
    String newKey = randomKey();
    long seeded;
    try (Node node = start(db, oldKey, null)) {
      long started = System.nanoTime();
      Http http = new Http(node.http(), SharedServer.OPERATOR_TOKEN);
      for (int i = 0; i < TENANTS; i++) {
        int status = http.put("/v1/tenants/t" + i, Http.tenant("t" + i, "")).status();
        if (status != 201) {
          throw new IllegalStateException("tenant t" + i + ": " + status);
        }
      }
      seeded = (System.nanoTime() - started) / 1_000_000;
    }
    System.out.printf(
        "%d tenants, one signing key each, created under the old key in %d ms%n", TENANTS, seeded);

    try (Node node = start(db, newKey, oldKey)) {
      Http http = new Http(node.http(), SharedServer.OPERATOR_TOKEN);
      http.put("/v1/tenants/writer", Http.tenant("writer", ""));
      List<Write> writes = new ArrayList<>();
      List<Long> stepEnds = new ArrayList<>();
      long begun = System.nanoTime();
      long interval = 1_000_000_000L / RATE;
      long next = System.nanoTime();
      long deadline =
          begun + Duration.ofSeconds(CHECK_SECONDS * (TENANTS / 200L + 3) + 60).toNanos();
      long nextProbe = next;
      long doneAt = 0;
      double seen = -1;
      int n = 0;
      while (System.nanoTime() < deadline
          && (doneAt == 0 || System.nanoTime() < doneAt + 20_000_000_000L)) {
        LockSupport.parkNanos(next - System.nanoTime());
        String name = "ns" + (n++ % 500);
        long sent = System.nanoTime();
        int status =
            http.put(
                    "/v1/tenants/writer/namespaces/" + name,
                    Http.namespace("writer", name, "write " + n))
                .status();
        long took = System.nanoTime() - sent;
        if (status != 200 && status != 201) {
          throw new IllegalStateException("write " + n + ": " + status);
        }
        writes.add(new Write(sent, took / 1000));
        next += interval;
        if (doneAt == 0 && sent > nextProbe) {
          nextProbe = sent + 100_000_000L;
          double left = Metrics.valueIn(Metrics.scrape(node.http()), GAUGE, "");
          if (left != seen) {
            seen = left;
            long now = System.nanoTime();
            stepEnds.add(now);
            System.out.printf(
                "a re-encryption step ended %.1f s into the run; %.0f keys left%n",
                (now - begun) / 1e9, left);
            if (left == 0) {
              doneAt = now;
            }
          }
        }
      }
      if (doneAt == 0) {
        throw new IllegalStateException("the keys were not all stored again within the run");
      }
      long warm = begun + Duration.ofSeconds(Math.max(5, CHECK_SECONDS - 25)).toNanos();
      print("before the first step (warm)", writes, warm, stepEnds.get(0) - 3_000_000_000L);
      for (int i = 0; i < stepEnds.size(); i++) {
        long end = stepEnds.get(i);
        print(
            "the 2 s up to step " + (i + 1) + "'s end",
            writes,
            end - 2_000_000_000L,
            end + 200_000_000L);
      }
      print("after the last step", writes, doneAt + 2_000_000_000L, Long.MAX_VALUE);
    }
  }

  private static void print(String phase, List<Write> writes, long from, long to) {
    long[] micros =
        writes.stream()
            .filter(w -> w.atNanos() >= from && w.atNanos() < to)
            .mapToLong(Write::micros)
            .sorted()
            .toArray();
    if (micros.length == 0) {
      System.out.printf("%s: no writes%n", phase);
      return;
    }
    System.out.printf(
        "%s: %d writes, round trip p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
        phase,
        micros.length,
        micros[micros.length / 2] / 1000.0,
        micros[(int) Math.min(micros.length - 1, Math.ceil(micros.length * 0.99) - 1)] / 1000.0,
        micros[micros.length - 1] / 1000.0);
  }

  private static Node start(String db, String current, String fallback) throws Exception {
    int http = Ports.free();
    Map<String, String> env = BenchNode.writeEnvironment(http, Ports.free(), db);
    env.put("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY", current);
    if (fallback != null) {
      env.put("SERVICE_CONTROLPLANE_KEY_ENCRYPTION_KEY_FALLBACKS", fallback);
    }
    env.put("SERVICE_CONTROLPLANE_KEY_ROTATION_CHECK_INTERVAL", CHECK_SECONDS + "s");
    ServerProcess node = new ServerProcess("bench-kek", env).start();
    node.awaitReady(Duration.ofSeconds(180));
    return new Node(node, http);
  }

  private static String randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }
}

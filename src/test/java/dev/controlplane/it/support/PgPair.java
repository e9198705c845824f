package dev.controlplane.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A PostgreSQL 15 primary with a synchronous streaming standby, two clusters of their own made by
 * {@code scripts/pg-replication} (pg_createcluster + pg_basebackup), so a test can restart and fail
 * over "the database" without touching the cluster on 5432 that the rest of the suite uses. The
 * service reaches them through one multi-host URL with {@code targetServerType=primary}, as in
 * production. Needs root (or sudo) for pg_ctlcluster.
 */
public final class PgPair implements AutoCloseable {

  private final String[] names;
  private final int[] ports;
  private int primary;

  private PgPair(String prefix) {
    this.names = new String[] {prefix + "_a", prefix + "_b"};
    this.ports = new int[] {Ports.free(), Ports.free()};
  }

  /** Drops leftovers of an earlier run with the same prefix, then builds the pair. */
  public static PgPair create(String prefix) throws IOException, InterruptedException {
    PgPair pair = new PgPair(prefix);
    for (String name : pair.names) {
      run("drop", name);
    }
    run("primary", pair.names[0], Integer.toString(pair.ports[0]));
    pair.attachStandby();
    return pair;
  }

  /** Both hosts, the primary wherever it is: what the service is configured with. */
  public String serviceUrl() {
    return "jdbc:postgresql://127.0.0.1:"
        + ports[0]
        + ",127.0.0.1:"
        + ports[1]
        + "/controlplane?targetServerType=primary&hostRecheckSeconds=1";
  }

  /** The current primary alone, for the test's own checks. */
  public String primaryUrl() {
    return "jdbc:postgresql://127.0.0.1:" + ports[primary] + "/controlplane";
  }

  public String primaryName() {
    return names[primary];
  }

  /** {@code pg_ctlcluster restart} of the primary (a fast shutdown: sessions are cut). */
  public void restartPrimary() throws IOException, InterruptedException {
    run("restart", names[primary]);
  }

  /** Crashes the primary ({@code stop -m immediate}) and promotes the standby in its place. */
  public void failOver() throws IOException, InterruptedException {
    run("crash", names[primary]);
    run("promote", names[1 - primary]);
    primary = 1 - primary;
  }

  /**
   * The primary stops waiting for its standby, which then stops (as if crashed): commits from now
   * on are acknowledged and visible on the primary alone, until {@link #failOverToStandbyBehind}
   * loses them.
   */
  public void stopReplicating() throws IOException, InterruptedException {
    run("async", names[primary]);
    run("crash", names[1 - primary]);
  }

  /**
   * Crashes the primary and starts and promotes the standby that {@link #stopReplicating} stopped:
   * what the primary committed since is gone, as in a failover to an asynchronous standby that
   * lagged.
   */
  public void failOverToStandbyBehind() throws IOException, InterruptedException {
    run("crash", names[primary]);
    run("start", names[1 - primary]);
    run("promote", names[1 - primary]);
    primary = 1 - primary;
  }

  /** Rebuilds the other cluster as a synchronous standby of the primary. */
  public void attachStandby() throws IOException, InterruptedException {
    int standby = 1 - primary;
    run(
        "attach",
        names[standby],
        Integer.toString(ports[standby]),
        Integer.toString(ports[primary]));
  }

  @Override
  public void close() throws IOException, InterruptedException {
    for (String name : names) {
      run("drop", name);
    }
  }

  private static void run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of("scripts", "pg-replication").toAbsolutePath().toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
    }
  }
}

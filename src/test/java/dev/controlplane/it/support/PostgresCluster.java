package dev.controlplane.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The local PostgreSQL cluster, for tests that restart the database (root and pg_ctlcluster
 * needed).
 */
public final class PostgresCluster {

  private PostgresCluster() {}

  /**
   * {@code {version, name}} of the cluster listening on 5432, or null when it cannot be managed
   * here.
   */
  public static String[] find() {
    if (!"root".equals(System.getProperty("user.name"))) {
      return null;
    }
    try {
      Process p =
          new ProcessBuilder("pg_lsclusters", "--no-header").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        return null;
      }
      for (String line : out.split("\\R")) {
        String[] f = line.trim().split("\\s+");
        if (f.length >= 4 && f[2].equals("5432") && f[3].equals("online")) {
          return new String[] {f[0], f[1]};
        }
      }
      return null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  public static void restart(String[] cluster) throws IOException, InterruptedException {
    int exit =
        new ProcessBuilder("pg_ctlcluster", cluster[0], cluster[1], "restart")
            .inheritIO()
            .start()
            .waitFor();
    if (exit != 0) {
      throw new IllegalStateException(
          "pg_ctlcluster " + cluster[0] + " " + cluster[1] + " restart failed with " + exit);
    }
  }
}

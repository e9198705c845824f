package dev.controlplane.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Directories that what tests and benchmarks start writes into: the nodes, and peers such as
 * Keycloak, etcd and Kafka.
 */
public final class Directories {

  private Directories() {}

  /** Deletes {@code root} and everything under it; nothing when it does not exist. */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      List<Path> deepestFirst = paths.sorted(Comparator.reverseOrder()).toList();
      for (Path p : deepestFirst) {
        Files.delete(p);
      }
    }
  }
}

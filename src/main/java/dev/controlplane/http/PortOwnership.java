package dev.controlplane.http;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Who listens on a TCP port, from the kernel's socket tables ({@code /proc/net/tcp}, {@code tcp6})
 * and this process's descriptors ({@code /proc/self/fd}). Unlike an HTTP probe, the answer does not
 * depend on how fast this node answers: a node slowed by a loaded machine is still the owner, and a
 * foreign process that accepts connections and never answers is not. Linux only; elsewhere the
 * answer is {@link Owner#UNKNOWN}.
 */
public final class PortOwnership {

  /** Who listens on the port. */
  public enum Owner {
    THIS_PROCESS,
    ANOTHER_PROCESS,
    NOBODY,
    UNKNOWN
  }

  private static final String LISTEN = "0A";
  private static final List<Path> TABLES =
      List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));
  private static final Path OWN_FDS = Path.of("/proc/self/fd");

  private PortOwnership() {}

  public static Owner of(int port) {
    try {
      Set<String> listening = listeningInodes(port);
      if (listening.isEmpty()) {
        return Owner.NOBODY;
      }
      Set<String> own = ownSocketInodes();
      return listening.stream().anyMatch(own::contains)
          ? Owner.THIS_PROCESS
          : Owner.ANOTHER_PROCESS;
    } catch (IOException | RuntimeException e) {
      return Owner.UNKNOWN;
    }
  }

  /** Socket inodes in LISTEN state on {@code port}, any local address. */
  private static Set<String> listeningInodes(int port) throws IOException {
    String hexPort = String.format(Locale.ROOT, "%04X", port);
    Set<String> inodes = new HashSet<>();
    for (Path table : TABLES) {
      if (!Files.isReadable(table)) {
        continue;
      }
      for (String line : Files.readAllLines(table)) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[1].endsWith(":" + hexPort) && f[3].equals(LISTEN)) {
          inodes.add(f[9]);
        }
      }
    }
    return inodes;
  }

  private static Set<String> ownSocketInodes() throws IOException {
    Set<String> inodes = new HashSet<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(OWN_FDS)) {
      for (Path fd : fds) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException closedMeanwhile) {
          // a descriptor closed while listing is not a listener of ours
        }
      }
    }
    return inodes;
  }
}

package dev.controlplane.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A network partition on loopback: iptables rules that drop every packet to and from one node's
 * cluster address (each test node's JGroups transport binds an address of its own in 127.0.0.0/8,
 * its HTTP, gRPC and database traffic stay on 127.0.0.1). The rules carry a comment, so rules left
 * by a test that died are removed by the next one, and a shutdown hook removes them when the test
 * JVM exits. Needs root, or sudo without a password, and iptables (scripts/test checks the first
 * and installs the second when missing).
 */
public final class Partition implements AutoCloseable {

  /** Per test JVM: a partition of one never removes another's rules ({@link Fork}). */
  private static final String TAG = Fork.qualify("controlplane-it-partition", "-");

  private final List<List<String>> rules = new ArrayList<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(Partition::removeAllTagged));
  }

  private Partition() {}

  /** Cuts each of {@code addresses} off from every other address, in both directions. */
  public static Partition isolate(String... addresses) throws IOException, InterruptedException {
    removeAllTagged();
    Partition p = new Partition();
    for (String address : addresses) {
      p.add(List.of("-d", address, "!", "-s", address));
      p.add(List.of("-s", address, "!", "-d", address));
    }
    return p;
  }

  private void add(List<String> match) throws IOException, InterruptedException {
    List<String> rule = new ArrayList<>(match);
    rule.addAll(List.of("-m", "comment", "--comment", TAG, "-j", "DROP"));
    iptables("-I", rule);
    rules.add(rule);
  }

  /** Removes the rules: the partition heals. */
  public void heal() throws IOException, InterruptedException {
    for (List<String> rule : rules) {
      iptables("-D", rule);
    }
    rules.clear();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    heal();
  }

  private static void iptables(String op, List<String> rule)
      throws IOException, InterruptedException {
    List<String> command = iptablesCommand("-w", op, "INPUT");
    command.addAll(rule);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
  }

  /**
   * The command line of iptables: as root, or through sudo without a password (scripts/test checks
   * that one of the two holds); from /usr/sbin, which is not on every user's PATH.
   */
  private static List<String> iptablesCommand(String... arguments) {
    List<String> command = new ArrayList<>();
    if (!"root".equals(System.getProperty("user.name"))) {
      command.addAll(List.of("sudo", "-n"));
    }
    command.add(
        java.nio.file.Files.isExecutable(java.nio.file.Path.of("/usr/sbin/iptables"))
            ? "/usr/sbin/iptables"
            : "iptables");
    command.addAll(List.of(arguments));
    return command;
  }

  private static void removeAllTagged() {
    try {
      Process p = new ProcessBuilder(iptablesCommand("-w", "-S", "INPUT")).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      for (String line : out.split("\\R")) {
        if (!line.startsWith("-A INPUT ")) {
          continue;
        }
        List<String> rule =
            new ArrayList<>(List.of(line.substring("-A INPUT ".length()).split(" ")));
        rule.replaceAll(s -> s.replace("\"", ""));
        // The comment itself, not a substring of the line: the first JVM's tag begins the others'.
        int comment = rule.indexOf("--comment");
        if (comment >= 0 && comment + 1 < rule.size() && rule.get(comment + 1).equals(TAG)) {
          iptables("-D", rule);
        }
      }
    } catch (IOException e) {
      // No iptables: nothing to remove.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package dev.controlplane.it.support;

/**
 * Which of the run's parallel test JVMs this is. Failsafe runs the integration tests in {@code
 * it.forks} JVMs at once (pom.xml), each numbered from 1 in {@code it.fork}; everything two of them
 * could otherwise share on this machine — databases, loopback ports, cluster addresses, iptables
 * rules, the shared server's log — is told apart by this number. The first JVM keeps the names a
 * single-JVM run uses, so {@code -Dit.test=…} runs and older logs read the same.
 */
public final class Fork {

  private Fork() {}

  /** 1 for the first (or only) test JVM, 2 for the second, … */
  public static int number() {
    int fork = Integer.getInteger("it.fork", 1);
    if (fork < 1 || fork > count()) {
      throw new IllegalStateException("it.fork=" + fork + " is outside 1.." + count());
    }
    return fork;
  }

  /**
   * How many test JVMs the run has at most: 1 to 8, so that each keeps at least 1,500 ports of its
   * own ({@link Ports}) and its cluster addresses stay inside 127.0.0.0/24.
   */
  public static int count() {
    int forks = Integer.getInteger("it.forks", 1);
    if (forks < 1 || forks > 8) {
      throw new IllegalStateException("it.forks=" + forks + " is outside 1..8");
    }
    return forks;
  }

  /** {@code base} for the first JVM, {@code base + separator + "f" + n} for the n-th. */
  public static String qualify(String base, String separator) {
    int fork = number();
    return fork == 1 ? base : base + separator + "f" + fork;
  }
}

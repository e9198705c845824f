package dev.controlplane.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Loopback ports held by another process, as the kernel's socket tables see it: a child JVM listens
 * on them and never accepts, so connections wait in its backlog unanswered.
 */
public final class PortsHeldElsewhere implements AutoCloseable {

  private final Process process;
  private final List<Integer> ports;

  private PortsHeldElsewhere(Process process, List<Integer> ports) {
    this.process = process;
    this.ports = ports;
  }

  /** Starts the child JVM and returns once it listens on {@code count} ports. */
  public static PortsHeldElsewhere hold(int count) throws Exception {
    Process process =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                Path.of(
                        PortsHeldElsewhere.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString(),
                PortsHeldElsewhere.class.getName(),
                Integer.toString(count))
            .redirectErrorStream(true)
            .start();
    String line =
        new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))
            .readLine();
    if (line == null) {
      process.destroyForcibly();
      throw new IllegalStateException("the port holder ended before it listened");
    }
    return new PortsHeldElsewhere(
        process, Arrays.stream(line.trim().split(" ")).map(Integer::valueOf).toList());
  }

  public int port(int index) {
    return ports.get(index);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** The child: listens on {@code args[0]} loopback ports, prints them on one line, waits. */
  public static void main(String[] args) throws Exception {
    List<ServerSocket> sockets = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < Integer.parseInt(args[0]); i++) {
      ServerSocket socket = new ServerSocket();
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
      sockets.add(socket);
      line.append(i == 0 ? "" : " ").append(socket.getLocalPort());
    }
    System.out.println(line);
    System.out.flush();
    Thread.sleep(300_000);
  }
}

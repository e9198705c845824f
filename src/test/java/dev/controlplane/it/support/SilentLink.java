package dev.controlplane.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A TCP relay on loopback that can fall silent: after {@link #silence()} it forwards nothing in
 * either direction and closes nothing, as a peer whose host died or whose network path was cut
 * looks to the other side. Each side's connection stays open; only a timeout of the server's own
 * can find out. It can also be {@link #cut()}: every connection is closed and new ones are closed
 * as they come, as a server that went down refuses them, until {@link #restore()}.
 */
public final class SilentLink implements AutoCloseable {

  private final ServerSocket listener;
  private final int target;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final CountDownLatch silenced = new CountDownLatch(1);
  private final Thread acceptor;
  private final List<Thread> pumps = new CopyOnWriteArrayList<>();
  private volatile boolean cut;

  public SilentLink(int targetPort) throws IOException {
    this.target = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "silent-link-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** From now on nothing passes; bytes already read are dropped. */
  public void silence() {
    silenced.countDown();
  }

  /** Closes every connection now, and each new one as it comes, until {@link #restore()}. */
  public void cut() throws IOException {
    cut = true;
    for (Socket s : sockets) {
      s.close();
    }
    sockets.clear();
  }

  /** Relays new connections again. */
  public void restore() {
    cut = false;
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        if (cut) {
          client.close();
          continue;
        }
        Socket server = new Socket();
        server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 5_000);
        sockets.add(client);
        sockets.add(server);
        pump(client, server);
        pump(server, client);
      } catch (IOException e) {
        return;
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0 && silenced.getCount() > 0) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
                if (silenced.getCount() == 0) {
                  // Neither forward nor close: the far side hears nothing more, not even an end.
                  Thread.sleep(Long.MAX_VALUE);
                }
                to.shutdownOutput();
              } catch (IOException | InterruptedException e) {
                // Closed by close().
              }
            },
            "silent-link-pump");
    thread.setDaemon(true);
    pumps.add(thread);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    acceptor.interrupt();
    pumps.forEach(Thread::interrupt);
    for (Socket s : sockets) {
      s.close();
    }
  }
}

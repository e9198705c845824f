package dev.controlplane.cli.client;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node that reads a gRPC request and drops the connection without answering, as a node that dies
 * during a call: the request was sent, so whether it was applied is unknown. It speaks just enough
 * HTTP/2 for the client to send the request (its own settings), then closes on the request's
 * HEADERS frame.
 */
final class DropsAfterRequest implements AutoCloseable {

  private static final int PREFACE_LENGTH = 24;
  private static final int HEADERS = 1;
  private static final byte[] EMPTY_SETTINGS = {0, 0, 0, 4, 0, 0, 0, 0, 0};

  final AtomicInteger requests = new AtomicInteger();
  private final ServerSocket socket;
  private final Thread acceptor;

  DropsAfterRequest() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::serve, "drops-after-request");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String hostPort() {
    return "127.0.0.1:" + socket.getLocalPort();
  }

  private void serve() {
    while (!socket.isClosed()) {
      try (Socket connection = socket.accept()) {
        OutputStream out = connection.getOutputStream();
        out.write(EMPTY_SETTINGS);
        out.flush();
        DataInputStream in = new DataInputStream(connection.getInputStream());
        in.readFully(new byte[PREFACE_LENGTH]);
        while (true) {
          byte[] header = new byte[9];
          in.readFully(header);
          int length = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | (header[2] & 0xff);
          in.readFully(new byte[length]);
          if (header[3] == HEADERS) {
            requests.incrementAndGet();
            break;
          }
        }
      } catch (IOException e) {
        // closed by close(), or the client went away first: either way, the next connection
      }
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    socket.close();
    acceptor.join(5000);
  }
}

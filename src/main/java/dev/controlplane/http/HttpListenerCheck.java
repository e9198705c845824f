package dev.controlplane.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Checks, once start-up is done, that the HTTP port is served by this node. Liberty logs a bind
 * failure of its HTTP listener (CWWKO0221E) and goes on without it, so a node whose port is taken
 * would run its gRPC API with no HTTP API. The check asks {@code host:port} for this process's
 * token ({@link ListenerIdentity}): an answer with it ends the check. Whether a silent or foreign
 * answer comes from another process is decided by the kernel's socket tables ({@link
 * PortOwnership}), never by a timeout, since this node may simply be slow on a loaded machine:
 * another process holding the port, or no listener at all within {@link #DEADLINE}, is reported to
 * {@code onFailure} with one line naming the port. Where the tables cannot be read, another process
 * answering (or accepting without answering) for {@link #FOREIGN_FOR} in a row counts as holding
 * it.
 */
public final class HttpListenerCheck {

  static final Duration DEADLINE = Duration.ofSeconds(30);

  /** Longer than the moment Liberty serves the port before this application's filters are in. */
  static final Duration FOREIGN_FOR = Duration.ofSeconds(5);

  private static final Logger LOG = Logger.getLogger(HttpListenerCheck.class.getName());

  private final URI target;
  private final String token;
  private final String setting;
  private final Consumer<String> onFailure;
  private final HttpClient client;

  /**
   * @param tls with TLS on, a context trusting exactly this node's own certificate: the port speaks
   *     HTTPS, and the address checked need not be a name the certificate carries
   */
  public HttpListenerCheck(
      String host,
      int port,
      String token,
      String setting,
      java.util.Optional<javax.net.ssl.SSLContext> tls,
      Consumer<String> onFailure) {
    var builder =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(1))
            .version(HttpClient.Version.HTTP_1_1);
    tls.ifPresent(builder::sslContext);
    this.client = builder.build();
    this.target =
        URI.create((tls.isPresent() ? "https" : "http") + "://" + host + ":" + port + "/");
    this.token = token;
    this.setting = setting;
    this.onFailure = onFailure;
  }

  /** Runs the check on a daemon thread of its own (managed threads wait for start-up to end). */
  public void start() {
    Thread thread = new Thread(this::run, "http-listener-check");
    thread.setDaemon(true);
    thread.start();
  }

  void run() {
    long start = System.nanoTime();
    long foreignSince = -1;
    while (System.nanoTime() - start < DEADLINE.toNanos()) {
      String answer = probe();
      if (answer == null) {
        LOG.info("HTTP listener on " + where() + " answers for this node");
        return;
      }
      PortOwnership.Owner owner = PortOwnership.of(target.getPort());
      if (owner == PortOwnership.Owner.ANOTHER_PROCESS) {
        fail(answer.isEmpty() ? "another process listens on it" : answer);
        return;
      }
      boolean foreignAnswer = owner == PortOwnership.Owner.UNKNOWN && !answer.isEmpty();
      foreignSince = !foreignAnswer ? -1 : foreignSince < 0 ? System.nanoTime() : foreignSince;
      if (foreignAnswer && System.nanoTime() - foreignSince >= FOREIGN_FOR.toNanos()) {
        fail(answer);
        return;
      }
      pause();
    }
    if (PortOwnership.of(target.getPort()) == PortOwnership.Owner.THIS_PROCESS) {
      // The listener is ours and merely slow (a loaded machine): not a reason to stop.
      LOG.warning(
          "HTTP listener on "
              + where()
              + " is this node's but has not answered within "
              + DEADLINE);
      return;
    }
    onFailure.accept(
        "HTTP port "
            + where()
            + " has no listener of this node "
            + DEADLINE.toSeconds()
            + " s after start-up (see CWWKO0221E above: the port is taken or the host is not"
            + " local)");
  }

  private void fail(String what) {
    onFailure.accept("HTTP port " + where() + " is held by another process (" + what + ")");
  }

  /** null when this node answered, "" when nothing listens, else what answered instead. */
  private String probe() {
    HttpRequest request =
        HttpRequest.newBuilder(target)
            .timeout(Duration.ofSeconds(2))
            .header(ListenerIdentity.HEADER, token)
            .GET()
            .build();
    try {
      HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
      if (token.equals(response.headers().firstValue(ListenerIdentity.HEADER).orElse(""))) {
        return null;
      }
      return "it answered HTTP " + response.statusCode() + " without this node's token";
    } catch (ConnectException refused) {
      return "";
    } catch (IOException e) {
      return "it accepted the connection but gave no HTTP answer: " + e.getClass().getSimpleName();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private String where() {
    return target.getHost() + ":" + target.getPort() + " (" + setting + ")";
  }

  private static void pause() {
    try {
      Thread.sleep(250);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

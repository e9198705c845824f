package dev.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;

/**
 * One try of a request on one server: a response, a problem, or a connection failure; and whether
 * it may have stored anything, which decides if a write may be sent to another node.
 *
 * @param leader the leader a 503 {@code not_leader} names, when it names one
 * @param mayHaveStored false only when the request certainly changed nothing: it never reached the
 *     server, or the server said it refused it before writing
 */
record Attempt(
    ApiClient.Response response,
    Problem problem,
    URI leader,
    String failure,
    boolean mayHaveStored) {

  static Attempt of(HttpResponse<String> response) {
    JsonNode body = ApiClient.parse(response.body());
    int status = response.statusCode();
    if (status < 300) {
      return new Attempt(new ApiClient.Response(status, body), null, null, null, true);
    }
    Problem problem = Problem.of(status, body, response.body());
    URI leader = null;
    if (problem.code().equals("not_leader") && !body.path("leader_url").asText("").isEmpty()) {
      leader = URI.create(body.path("leader_url").asText().replaceAll("/+$", ""));
    }
    boolean mayHaveStored = status >= 500 && !refusedUnwritten(problem);
    return new Attempt(null, problem, leader, null, mayHaveStored);
  }

  static Attempt of(IOException e, Duration timeout) {
    String failure;
    if (e instanceof ConnectException) {
      failure = "connection refused";
    } else if (e instanceof HttpConnectTimeoutException) {
      failure = "connect timed out";
    } else if (e instanceof HttpTimeoutException) {
      failure = "no answer within " + timeout.toSeconds() + " s (CPCTL_REQUEST_TIMEOUT)";
    } else {
      failure = "connection failed (" + describe(e) + ")";
    }
    return new Attempt(null, null, null, failure, !neverSent(e));
  }

  String describe() {
    return problem != null ? problem.oneLine() : failure;
  }

  /**
   * Whether a 503 says the request was refused before anything was written (docs/api.md, Errors): a
   * follower's {@code not_leader}, or an {@code unavailable} whose detail says so (a node that
   * knows no leader, a full queue). A detail that says "may or may not be stored", or says nothing
   * of it, is not such a refusal.
   */
  static boolean refusedUnwritten(Problem problem) {
    return switch (problem.code()) {
      case "not_leader" -> true;
      // Servers before 2026-12-06 said only "no leader is known" for a refusal unwritten.
      case "unavailable" ->
          saysNothingWritten(problem.detail()) || problem.detail().startsWith("no leader is known");
      default -> false;
    };
  }

  /** The server's own words for a refusal before anything was stored, over HTTP and gRPC alike. */
  static boolean saysNothingWritten(String detail) {
    return detail != null && detail.contains("nothing was written");
  }

  /**
   * Whether the connection failed before any byte of the request went out: refused, no route, an
   * unknown host, a connect timeout, a TLS handshake that failed. Anything later (a timeout waiting
   * for the answer, a connection reset or closed mid-exchange) may follow a stored write.
   */
  static boolean neverSent(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof HttpConnectTimeoutException
          || t instanceof NoRouteToHostException
          || t instanceof UnknownHostException
          || t instanceof SSLHandshakeException) {
        return true;
      }
    }
    return false;
  }

  private static String describe(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}

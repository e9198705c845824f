package dev.controlplane.http;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.Failures;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Every failure leaves as problem+json; server faults say nothing about their cause. */
final class ExceptionMappers {

  private static final Logger LOG = Logger.getLogger(ExceptionMappers.class.getName());

  private ExceptionMappers() {}

  @Provider
  public static final class Known implements ExceptionMapper<ControlPlaneException> {
    @Context UriInfo uri;

    @Override
    public Response toResponse(ControlPlaneException e) {
      return Problems.of(e, requestUri(uri));
    }
  }

  /** JAX-RS's own refusals: unknown path, wrong method, unsupported media type. */
  @Provider
  public static final class Web implements ExceptionMapper<WebApplicationException> {
    @Context UriInfo uri;

    @Override
    public Response toResponse(WebApplicationException e) {
      int status = e.getResponse().getStatus();
      if (status >= 500) {
        return Unexpected.fault(e);
      }
      String code =
          switch (status) {
            case 404 -> "not_found";
            case 401 -> "invalid_token";
            case 403 -> "forbidden";
            case 413 -> "payload_too_large";
            default -> "bad_request";
          };
      String detail =
          switch (status) {
            case 404 -> "no such resource";
            case 405 -> "method not allowed on this resource";
            case 406 ->
                "cannot produce an acceptable representation; ask for "
                    + OfferedRepresentations.at(requestPath(uri));
            case 415 ->
                "unsupported content type; send " + OfferedRepresentations.at(requestPath(uri));
            case 400 -> unreadable(e);
            default -> Problems.title(status);
          };
      if (status == 415 || status == 405 || status == 406) {
        code =
            status == 415
                ? "unsupported_media_type"
                : status == 405 ? "method_not_allowed" : "not_acceptable";
      }
      Response problem = Problems.of(status, code, detail);
      if (status == 405 && e.getResponse().getHeaderString("Allow") != null) {
        return Response.fromResponse(problem)
            .header("Allow", e.getResponse().getHeaderString("Allow"))
            .build();
      }
      return problem;
    }
  }

  /**
   * The request's URI, for the leader's {@code Location}; null when there is none or when the
   * client sent one {@link java.net.URI} cannot hold (a malformed percent-encoding), which would
   * otherwise turn the client's 4xx into the web container's 500 page.
   */
  private static java.net.URI requestUri(UriInfo uri) {
    if (uri == null) {
      return null;
    }
    try {
      return uri.getRequestUri();
    } catch (IllegalArgumentException malformed) {
      return null;
    }
  }

  /** The request's path, or null when there is none or it does not decode. */
  private static String requestPath(UriInfo uri) {
    if (uri == null) {
      return null;
    }
    try {
      return uri.getPath();
    } catch (IllegalArgumentException malformed) {
      return null;
    }
  }

  /**
   * What was wrong with a request the framework could not hand to a resource. Its own message names
   * Java methods and RESTEasy codes, which tell a client nothing it can act on; the one failure
   * that reaches here from a client is a URL whose percent-encoding does not decode.
   */
  static String unreadable(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof IllegalArgumentException) {
        return "the request's URL has a malformed percent-encoding: a % must be followed by two"
            + " hex digits (send a literal % as %25)";
      }
    }
    return "the request's URL, headers or parameters could not be read";
  }

  @Provider
  public static final class Unexpected implements ExceptionMapper<Throwable> {
    @Context UriInfo uri;

    @Override
    public Response toResponse(Throwable e) {
      java.net.URI request = requestUri(uri);
      return Failures.classify(e)
          .map(known -> Problems.of(known, request))
          .orElseGet(() -> fault(e));
    }

    static Response fault(Throwable e) {
      LOG.log(Level.SEVERE, "unexpected failure in an HTTP request", e);
      return Problems.of(500, "internal_error", "the server failed to process the request");
    }
  }
}

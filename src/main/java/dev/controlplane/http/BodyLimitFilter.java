package dev.controlplane.http;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Refuses bodies over {@code service.controlplane.http.max.body} with 413, declared or streamed.
 */
@Provider
@PreMatching
public class BodyLimitFilter implements ContainerRequestFilter {

  @Inject ControlPlaneConfig config;

  @Override
  public void filter(ContainerRequestContext request) {
    int max = config.httpMaxBody();
    if (request.getLength() > max) {
      throw tooLarge(max);
    }
    request.setEntityStream(new Limited(request.getEntityStream(), max));
  }

  static ControlPlaneException tooLarge(int max) {
    return new ControlPlaneException(
        ErrorCode.PAYLOAD_TOO_LARGE, "the body is larger than " + max + " bytes");
  }

  private static final class Limited extends FilterInputStream {
    private final int max;
    private long read;

    Limited(InputStream in, int max) {
      super(in);
      this.max = max;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) {
      read += n;
      if (read > max) {
        throw tooLarge(max);
      }
    }
  }
}

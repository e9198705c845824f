package dev.controlplane.tls;

import java.util.Collections;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;

/** The TLS sessions a context keeps for resumption. */
public final class TlsSessions {

  private TlsSessions() {}

  /**
   * Ends the resumption of every session {@code context} keeps, on either end: a resumed handshake
   * skips the trust manager, so sessions begun under trust that has since changed must not resume.
   */
  public static void forgetAll(SSLContext context) {
    for (SSLSessionContext sessions :
        List.of(context.getServerSessionContext(), context.getClientSessionContext())) {
      for (byte[] id : Collections.list(sessions.getIds())) {
        SSLSession session = sessions.getSession(id);
        if (session != null) {
          session.invalidate();
        }
      }
    }
  }
}

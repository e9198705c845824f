package dev.controlplane.health;

import java.util.List;
import java.util.logging.Logger;

/**
 * Logs when the node stops being ready and why, and when it is ready again: one line per change,
 * not one per probe. Liberty's own warning for a readiness check that reports down (CWMMH0052W)
 * comes at every probe, so a node without a quorum for ten minutes probed every second would write
 * six hundred of them; server.xml hides it and this line says the same once, with the reasons.
 *
 * <p>The node's start is logged elsewhere, so not being ready only because it is still starting is
 * not logged.
 */
final class ReadinessLog {

  static final String STARTING = "the node is starting";

  private static final Logger LOG = Logger.getLogger(ReadinessLog.class.getName());

  private List<String> last = List.of(STARTING);

  /** Records the reasons the node is not ready, none when it is ready. */
  synchronized void observe(List<String> reasons) {
    if (reasons.equals(last)) {
      return;
    }
    List<String> before = last;
    last = List.copyOf(reasons);
    if (reasons.isEmpty()) {
      if (!before.equals(List.of(STARTING))) {
        LOG.info("this node is ready again: /health/ready answers 200");
      }
    } else if (!reasons.equals(List.of(STARTING))) {
      LOG.warning(
          "this node is not ready, /health/ready answers 503 until it is: "
              + String.join("; ", reasons));
    }
  }
}

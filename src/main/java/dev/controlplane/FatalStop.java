package dev.controlplane;

import dev.controlplane.config.InvalidSettingException;
import dev.controlplane.db.SchemaMigrations.SchemaMismatchException;
import dev.controlplane.error.PortUnavailableException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Ends the process when the node cannot run: one log line that says why, then exit status {@value
 * #EXIT_STATUS}. Liberty keeps a server running when its only application fails, with liveness UP
 * and nothing served (it has no option to tie the two lifecycles), so the application ends the
 * process itself; {@code System.exit} runs Liberty's orderly stop, whose exit status the runnable
 * JAR's launcher passes on.
 */
final class FatalStop {

  static final int EXIT_STATUS = 3;
  private static final Logger LOG = Logger.getLogger(FatalStop.class.getName());

  private FatalStop() {}

  /**
   * Logs {@code cause} as the reason the node stops and exits. A cause whose message says it all (a
   * setting, the schema, a port) is logged as that one line; anything else with its stack.
   */
  static void because(Throwable cause) {
    boolean explained =
        cause instanceof InvalidSettingException
            || cause instanceof SchemaMismatchException
            || cause instanceof dev.controlplane.db.SchemaMigrations.DatabaseUnreachableException
            || cause instanceof PortUnavailableException
            || cause instanceof dev.controlplane.cluster.OtherDatabaseException;
    if (explained) {
      LOG.severe("control plane cannot run: " + cause.getMessage());
    } else {
      LOG.log(Level.SEVERE, "control plane cannot run: " + cause, cause);
    }
    exitSoon();
  }

  /** Exit from another thread: the server's own shutdown waits for the failing one to return. */
  private static void exitSoon() {
    Thread exit = new Thread(() -> System.exit(EXIT_STATUS), "fatal-stop-exit");
    exit.setDaemon(true);
    exit.start();
  }

  /** Thrown back to Liberty after {@link #because}: the message only, the cause was logged. */
  static final class Aborted extends RuntimeException {
    Aborted(String message) {
      super(message, null, false, false);
    }
  }
}

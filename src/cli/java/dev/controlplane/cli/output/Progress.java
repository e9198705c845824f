package dev.controlplane.cli.output;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress of a long operation, on stderr so that stdout stays parseable. {@code auto}: on a
 * terminal one line redrawn five times a second; otherwise a line every 10 s once the operation has
 * run that long. {@code always}: a line at every tenth of the work (or every second while waiting
 * for one answer), for logs and tests. {@code never}: nothing.
 */
public final class Progress implements AutoCloseable {

  /** {@code --progress}. */
  public enum Mode {
    AUTO,
    ALWAYS,
    NEVER
  }

  private final PrintWriter err;
  private final Mode mode;
  private final boolean terminal;
  private final String what;
  private final long total;
  private final AtomicLong done = new AtomicLong();
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService ticker;
  private long nextStep = 1;
  private boolean printed;
  private String lastLine;

  private Progress(PrintWriter err, Mode mode, boolean terminal, String what, long total) {
    this.err = err;
    this.mode = mode;
    this.terminal = terminal;
    this.what = what;
    this.total = total;
    long period = tickMillis();
    if (period > 0) {
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "cpctl-progress");
                t.setDaemon(true);
                return t;
              });
      ticker.scheduleAtFixedRate(this::tick, period, period, TimeUnit.MILLISECONDS);
    } else {
      ticker = null;
    }
  }

  /** Progress over {@code total} units of work (0 when the amount is unknown). */
  public static Progress start(PrintWriter err, Mode mode, String what, long total) {
    return new Progress(err, mode, System.console() != null, what, total);
  }

  private long tickMillis() {
    if (mode == Mode.NEVER) {
      return 0;
    }
    if (mode == Mode.ALWAYS) {
      return total > 0 ? 0 : 1000;
    }
    return terminal ? 200 : 10_000;
  }

  public void add(long units) {
    if (mode != Mode.ALWAYS || total == 0) {
      done.addAndGet(units);
      return;
    }
    // Counted under the lock: with workers adding at once, the line for a tenth must show the
    // count that reached it, not whatever others added before this thread got to print.
    synchronized (this) {
      long now = done.addAndGet(units);
      while (now * 10 >= nextStep * total && nextStep < 10) {
        nextStep++;
        line(false);
      }
    }
  }

  private synchronized void tick() {
    line(false);
  }

  /**
   * Runs {@code output}, which prints to the terminal, above the redrawn progress line: the line is
   * taken off first and drawn again after. Without a terminal nothing is redrawn.
   */
  public synchronized void above(Runnable output) {
    boolean redraw = terminal && mode == Mode.AUTO && lastLine != null;
    if (redraw) {
      err.print("\r\033[K");
      err.flush();
    }
    output.run();
    if (redraw) {
      err.print(lastLine);
      err.flush();
    }
  }

  private void line(boolean last) {
    String text = describe(last);
    if (terminal && mode == Mode.AUTO) {
      lastLine = last ? null : text;
      err.print("\r\033[K" + text + (last ? "\n" : ""));
    } else {
      err.println(text);
    }
    err.flush();
    printed = true;
  }

  String describe(boolean last) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    long count = done.get();
    StringBuilder text = new StringBuilder(what).append(": ");
    if (total > 0) {
      text.append(count).append('/').append(total);
      text.append(String.format(Locale.ROOT, " (%d%%)", count * 100 / total));
    } else if (count > 0) {
      text.append(count);
    } else {
      text.append(last ? "done" : "waiting for the server");
    }
    text.append(String.format(Locale.ROOT, ", %.1fs", seconds));
    if (count > 0 && seconds > 0) {
      double rate = count / seconds;
      text.append(String.format(Locale.ROOT, ", %.0f/s", rate));
      boolean settled = count * 20 >= total || seconds >= 5;
      if (!last && total > count && settled) {
        text.append(String.format(Locale.ROOT, ", about %.0fs left", (total - count) / rate));
      }
    }
    return text.toString();
  }

  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    if (printed || mode == Mode.ALWAYS) {
      line(true);
    }
  }
}

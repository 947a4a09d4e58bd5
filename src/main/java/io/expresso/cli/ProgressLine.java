package io.expresso.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The one progress line of the commands: on stderr, redrawn in place as
 * {@code [#####     ] done/total seconds what}, at most every {@value #REDRAW_MS} ms so a stream of
 * thousands of results costs no terminal time; {@link #finish} draws the last state and ends the
 * line. Thread-safe (listeners call it from consumer threads).
 */
final class ProgressLine {

  private static final long REDRAW_MS = 200;
  private static final int WIDTH = 30;

  private final PrintWriter err;
  private final int total;
  private final long start = System.nanoTime();
  private long lastDraw;
  private int done;
  private String what = "";

  ProgressLine(PrintWriter err, int total) {
    this.err = err;
    this.total = total;
  }

  /** One more item finished, {@code what} naming it. */
  synchronized void step(String what) {
    update(done + 1, what);
  }

  /** {@code done} items finished so far. */
  synchronized void update(int done, String what) {
    this.done = done;
    this.what = what;
    long now = System.nanoTime();
    // the last item always draws; beyond an estimated total (results --wait N) only the throttle does
    if (now - lastDraw >= REDRAW_MS * 1_000_000L || done == total) {
      lastDraw = now;
      draw();
    }
  }

  /** Draws the final state, then {@code summary} (if not empty) on the same line, and ends it. */
  synchronized void finish(String summary) {
    draw();
    if (!summary.isEmpty()) {
      err.print(" " + summary);
    }
    err.println();
    err.flush();
  }

  private void draw() {
    int shownTotal = Math.max(total, done);
    int filled = shownTotal <= 0 ? WIDTH : Math.min(WIDTH, done * WIDTH / shownTotal);
    double secs = (System.nanoTime() - start) / 1e9;
    err.printf(Locale.ROOT, "\r[%s%s] %d/%d %.1fs %-40s", "#".repeat(filled), " ".repeat(WIDTH - filled), done, shownTotal,
        secs, what.length() > 40 ? what.substring(0, 40) : what);
    err.flush();
  }
}

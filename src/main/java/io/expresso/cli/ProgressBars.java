package io.expresso.cli;

import io.expresso.report.Escape;
import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The commands' progress bars ({@code me.tongfei:progressbar}: rendering, rate, ETA, redraws) on
 * stderr. On a terminal the bar is redrawn in place every {@value #REDRAW_MS} ms, cut to the
 * terminal's width. Elsewhere (output to a file or a pipe, a CI
 * log, a test capturing the streams) there is nothing to redraw: the bar is a plain line, no
 * carriage return and no colour, written when it starts, at most every {@value #PLAIN_LINE_MS}
 * ms while work gets done, and once more with the final state when it closes.
 */
final class ProgressBars {

  static final int REDRAW_MS = 200;
  static final int PLAIN_LINE_MS = 30_000;
  /** Rendered width of a plain line (no terminal to ask). */
  static final int PLAIN_WIDTH = 120;

  private ProgressBars() {}

  /** A bar over {@code total} items named {@code task}, on {@code err}, in place only on a terminal. */
  static ProgressBar start(String task, long total, PrintWriter err) {
    return start(task, total, System.console() != null, err);
  }

  /** As {@link #start(String, long, PrintWriter)}, with whether {@code err} is a terminal given. */
  static ProgressBar start(String task, long total, boolean terminal, PrintWriter err) {
    CountDownLatch drawn = new CountDownLatch(1);
    ProgressBarBuilder b = new ProgressBarBuilder().setTaskName(task).setInitialMax(total);
    if (terminal) {
      b.setStyle(ProgressBarStyle.UNICODE_BLOCK).setUpdateIntervalMillis(REDRAW_MS)
          .setConsumer(new ConsoleProgressBarConsumer(System.err) { // its terminal width; drawn on err
            @Override
            public void accept(String line) {
              int w = getMaxRenderedLength();
              err.print('\r' + (line.length() > w ? line.substring(0, w) : line));
              err.flush();
              drawn.countDown();
            }

            @Override
            public void close() {
              err.println();
              err.flush();
            }
          });
    } else {
      AtomicReference<String> last = new AtomicReference<>();
      b.setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(PLAIN_LINE_MS)
          .setConsumer(new DelegatingProgressBarConsumer(line -> {
            String l = line.stripTrailing();
            if (!l.equals(last.getAndSet(l))) { // closing draws the last state twice
              err.println(l);
              err.flush();
            }
            drawn.countDown();
          }, PLAIN_WIDTH));
    }
    ProgressBar bar = b.build();
    try {
      // the first draw is scheduled at once; a bar closed before it would skip its last line's end
      drawn.await(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return bar;
  }

  /** One more item done, {@code what} naming it (escaped: it may come from a task). */
  static void step(ProgressBar bar, String what) {
    bar.setExtraMessage(Escape.terminal(what));
    bar.step();
  }

  /** {@code done} items so far, more than the bar's total if more came (the total was an estimate). */
  static void stepTo(ProgressBar bar, long done, String what) {
    if (done > bar.getMax()) {
      bar.maxHint(done);
    }
    bar.setExtraMessage(Escape.terminal(what));
    bar.stepTo(done);
  }
}

"""A progress bar on stderr for the wait on results: redrawn in place on a terminal, a line per
tenth of the way otherwise (logs, CI)."""
import sys
import time


class Progress:
    def __init__(self, total, label="results", stream=None, enabled=True):
        self.total, self.label, self.enabled = max(total, 0), label, enabled and total > 0
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.monotonic()
        self.shown = -1

    def update(self, done, errors=0):
        if not self.enabled:
            return
        if self.tty:
            width = 30
            filled = int(width * done / self.total)
            self.stream.write("\r%s [%s%s] %d/%d%s %.0f s" % (self.label, "#" * filled, "." * (width - filled), done,
                                                            self.total, ", %d errors" % errors if errors else "",
                                                            time.monotonic() - self.start))
            self.stream.flush()
            return
        tenth = 10 * done // self.total
        if tenth > self.shown:
            self.shown = tenth
            self.stream.write("%s: %d/%d%s after %.0f s\n" % (self.label, done, self.total,
                                                              " (%d errors)" % errors if errors else "",
                                                              time.monotonic() - self.start))
            self.stream.flush()

    def close(self):
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()

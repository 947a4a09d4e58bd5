"""An experiment's results as data: per-pair rows, the per-category table beside BREC's paper row,
the best seed; the same numbers `expresso results` prints (summary.py says how they are counted)."""
from collections import OrderedDict

from . import summary as S

PAIR_COLUMNS = ["task_id", "suite", "method", "pair", "category", "seed", "distinguished", "reliable", "t2",
                "t2_reliability", "threshold", "epochs", "final_loss", "seconds", "error", "error_message", "worker",
                "device", "precision", "threads", "revision", "versions", "attempt", "publisher"]


def _frame(rows, columns):
    """A pandas DataFrame when pandas is installed, else the rows as a list of dicts."""
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows, columns=columns)


def _task_fields(task_id):
    """(pair index, seed) from a pair task id <experiment>/<method>/<pair>/s<seed>; Nones if it is not one."""
    parts = task_id.rsplit("/", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2][:1] == "s" and parts[2][1:].isdigit():
        return int(parts[1]), int(parts[2][1:])
    return None, None


def _pct(part, whole):
    return None if whole <= 0 else round(100.0 * part / whole, 1)


class Results:
    """The de-duplicated results of one experiment (one per task id: the first success, else the
    latest error), as read from expresso.results."""

    def __init__(self, experiment, results, duplicate_records=0, superseded_errors=0):
        self.experiment = experiment
        self.results = list(results)  # expresso.v1.Result messages, in the order their task ids arrived
        self.duplicate_records = duplicate_records
        self.superseded_errors = superseded_errors
        self.configurations = S.leaderboard(self.results)

    def __len__(self):
        return len(self.results)

    def pair_rows(self):
        """One dict per pair task (errors included): verdict, T², reliability, seed, seconds, provenance."""
        rows = []
        for r in self.results:
            kind = r.provenance.task_kind
            if not r.HasField("pair") and kind != "pair":
                continue
            p, v = r.pair, r.provenance
            index, seed = (p.pair_index, p.seed) if r.HasField("pair") else _task_fields(r.task_id)
            method = p.method or self._method_of(r.task_id)
            ok = not r.HasField("error")
            rows.append({
                "task_id": r.task_id, "suite": p.suite_id or None, "method": method, "pair": index,
                "category": p.category or None, "seed": seed,
                "distinguished": p.distinguished if ok else None, "reliable": p.reliable if ok else None,
                "t2": p.t2_test if ok else None, "t2_reliability": p.t2_reliability if ok else None,
                "threshold": p.threshold if ok else None, "epochs": p.epochs if ok else None,
                "final_loss": p.final_loss if ok else None, "seconds": v.compute_seconds,
                "error": r.error.reason if not ok else None, "error_message": r.error.message if not ok else None,
                "worker": v.worker_id, "device": v.device, "precision": v.precision,
                "threads": v.intra_op_threads or None, "revision": v.revision,
                "versions": v.versions, "attempt": v.attempt, "publisher": v.publisher})
        return rows

    def _method_of(self, task_id):
        """The method of a pair task id <experiment>/<method>/<pair>/s<seed> (for an error result without a pair:
        a task that did not decode)."""
        prefix = self.experiment + "/"
        if task_id.startswith(prefix) and task_id.count("/") >= prefix.count("/") + 2:
            return task_id[len(prefix):].rsplit("/", 2)[0]
        return None

    @property
    def pairs(self):
        """pair_rows() as a pandas DataFrame (a list of dicts without pandas)."""
        return _frame(self.pair_rows(), PAIR_COLUMNS)

    @property
    def errors(self):
        """(task id, reason, message) of every task whose kept result is an error."""
        return [(r.task_id, r.error.reason, r.error.message) for r in self.results if r.HasField("error")]

    def configuration(self, method=None):
        """The pair configuration (a method on a suite) of `method`, or the only one."""
        found = [c for c in self.configurations if method is None or method in (c.method, c.label)]
        if not found:
            raise LookupError("experiment %s has no pair results%s" % (
                self.experiment, " of method " + method if method else ""))
        if len(found) > 1:
            raise LookupError("experiment %s ran several configurations; name one: %s" % (
                self.experiment, ", ".join(c.label for c in found)))
        return found[0]

    @property
    def best_seed(self):
        """The best seed by BREC's rule (highest real_correct, then most distinguished, then lowest)."""
        return self.configuration().best_seed

    @property
    def counts(self):
        """BREC's verdict: True when no seed failed reliability."""
        return self.configuration().counts

    def category_rows(self, method=None, paper=None):
        """The best seed per category beside BREC's paper row (the rows of `expresso results`'s comparison
        table): category, pairs, reliably distinguished, %, the paper's count, its category size, %.
        paper: a Table 2 model to compare with (e.g. "PPGN"); default the method's own row, if any."""
        conf = self.configuration(method)
        row = S.paper_row(paper) if paper else conf.paper
        out = []
        for ours, theirs, size in conf.lines(paper):
            out.append({"category": ours["name"], "pairs": ours["pairs"], "distinguished": ours["distinguished"],
                        "reliable": ours["reliable"], "reliably_distinguished": ours["reliably_distinguished"],
                        "errors": ours["errors"], "percent": _pct(ours["reliably_distinguished"], ours["pairs"]),
                        "paper_model": row[0] if row else None, "paper": theirs,
                        "paper_pairs": size if theirs is not None else None,
                        "paper_percent": _pct(theirs, size) if theirs is not None else None})
        return out

    def categories(self, method=None, paper=None):
        """category_rows() as a DataFrame (a list of dicts without pandas)."""
        rows = self.category_rows(method, paper)
        return _frame(rows, list(rows[0]) if rows else None)

    def leaderboard_rows(self):
        """BREC's leaderboard across the experiment's models (LeaderboardTable, `expresso results`'s "BREC
        leaderboard"): one dict per configuration run on BREC, ranked by its best seed's total (ties keep
        the experiment's order): model, paper_model, seeds, best_seed, pairs (the best seed's), counts (BREC's rule), failing_seeds,
        failing_only_through_errors (seeds whose judged pairs all passed reliability), reliability_failures (the best
        seed's pairs judged unreliable) and errors (its pairs not judged), then per row of BREC's order the best seed's reliably
        distinguished pairs and, where Table 2 has the row, "<row> (paper)"."""
        confs = sorted((c for c in self.configurations if c.brec), key=lambda c: -c.total()["reliably_distinguished"])
        rows = []
        for c in confs:
            total = c.total()
            row = OrderedDict(model=c.label, paper_model=c.paper[0] if c.paper else None, seeds=c.seeds,
                              best_seed=c.best_seed, pairs=total["pairs"], counts=c.counts,
                              failing_seeds=c.failing_seeds, failing_only_through_errors=c.failing_only_through_errors,
                              reliability_failures=total["pairs"] - total["errors"] - total["reliable"],
                              errors=total["errors"])
            for ours, theirs, _ in c.lines():
                row[ours["name"]] = ours["reliably_distinguished"]
                if theirs is not None:
                    row[ours["name"] + " (paper)"] = theirs
            rows.append(row)
        return rows

    @property
    def leaderboard(self):
        """leaderboard_rows() as a DataFrame (a list of dicts without pandas)."""
        rows = self.leaderboard_rows()
        columns = []
        for r in rows:
            columns.extend(k for k in r if k not in columns)
        return _frame(rows, columns or None)

    def summary(self):
        """The pair and synthetic fields of `expresso results --json` for this experiment, same values."""
        return S.summary_json(self.experiment, self.results, self.duplicate_records, self.superseded_errors)

    def __str__(self):
        s = self.summary()
        lines = ["experiment %s: %d unique results, %d errors" % (self.experiment, s["unique_results"], s["errors"])]
        for conf in self.configurations:
            lines.append("")
            lines.append("method " + conf.label)
            lines.append(conf.verdict())
            row = conf.paper
            lines.append("%-26s %6s %14s %7s %16s %8s" % ("category", "pairs", "ours (seed %d)" % conf.best_seed,
                                                          "ours %", "paper: " + row[0] if row else "paper", "paper %"))
            for ours, theirs, size in conf.lines():
                lines.append("%-26s %6d %14d %7s %16s %8s" % (
                    ours["name"], ours["pairs"], ours["reliably_distinguished"],
                    _fmt(_pct(ours["reliably_distinguished"], ours["pairs"])),
                    "-" if theirs is None else "%d/%d" % (theirs, size), _fmt(_pct(theirs, size) if theirs is not None else None)))
        board = self.leaderboard_rows()
        if len(board) > 1:
            lines.append("")
            lines.append("BREC leaderboard (best seed per model; Table 2 in parentheses)")
            for r in board:
                lines.append("%-26s %s: %s%s" % (r["model"], "counts" if r["counts"] else "does NOT count", ", ".join(
                    "%s %d%s" % (k, v, "" if r.get(k + " (paper)") is None else " (%d)" % r[k + " (paper)"])
                    for k, v in r.items() if k in S.ORDER), "" if r["paper_model"] is None else " [%s]" % r["paper_model"]))
        labels = {c.label for c in self.configurations}
        for row in s["categories"]:
            if row["method"] not in labels:  # synthetic, train, attack, and errors without a pair
                lines.append("%s tasks: %d (%d errors)" % (row["name"], row["tasks"], row["errors"]))
        for task_id, reason, message in self.errors[:5]:
            lines.append("error: %s: %s: %s" % (task_id, reason, message))
        return "\n".join(lines)


def _fmt(v):
    return "-" if v is None else "%.1f" % v

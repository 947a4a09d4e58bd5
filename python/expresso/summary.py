"""An experiment's results counted as the Java `expresso results` command counts them, rule for rule
(report/ResultSummary, SeedLeaderboard, BrecComparison; stats/ConfigurationResult;
suite/BrecPaperResults), so that both print the same numbers from the same topic:

- one result per task id: the first success, else the latest error (the reader applies it);
- pair results are grouped by (suite, method) and seed; the best seed has the highest
  real_correct = distinguished - reliability failures, then the most distinguished, then the lowest
  seed; a configuration counts (BREC's rule) only if no seed failed reliability;
- a pair task's error result keeps its pair (suite, index, category, method, seed; the worker's
  TaskProcessor), so it counts in its category's `errors` and in its seed as neither distinguished
  nor reliable: a failed pair is not distinguished for that seed, lowers its real_correct and makes
  the seed fail reliability;
- per category, the best seed's pairs; only error results without a pair (a task that did not
  decode) sit in a row of their own, under method '?' and their task kind.
"""
import csv
import os
from collections import OrderedDict

# BREC's Table 2, the file the Java side reads (src/main/resources/io/expresso/suite/brec-table2.csv,
# copied into the package when it is built; its comments say how it was read from the paper)
TABLE2 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "brec-table2.csv")


def _read_table2(path=TABLE2):
    """(model -> (Basic of 60, Regular of 140, Extension of 100, CFI of 100), other name -> model), in the
    paper's order; a row that does not sum to the total the paper prints is refused (BrecPaperResults)."""
    paper, also = OrderedDict(), {}
    with open(path, encoding="utf-8", newline="") as f:
        rows = csv.reader(line for line in f if line.strip() and not line.startswith("#"))
        next(rows)  # the header
        for model, basic, regular, extension, cfi, total, also_called in rows:
            counts = (int(basic), int(regular), int(extension), int(cfi))
            if sum(counts) != int(total):
                raise ValueError("%s: BREC Table 2 row %s sums to %d, the paper prints %s"
                                 % (path, model, sum(counts), total))
            paper[model] = counts
            also.update((name, model) for name in also_called.split())
    return paper, also


# model -> (Basic, Regular, Extension, CFI); other names (lower case) -> model
PAPER, _ALSO_CALLED = _read_table2()
PAPER_CATEGORIES = ["Basic", "Regular", "Extension", "CFI"]
PAPER_SIZES = [60, 140, 100, 100]
PAPER_REGULAR = ["Regular", "4-Vertex Condition", "Distance Regular"]  # the paper's 140-pair Regular
OUR_CATEGORIES = ["Basic", "Regular", "Extension", "CFI", "4-Vertex Condition", "Distance Regular"]
ORDER = ["Basic", "Regular", "4-Vertex Condition", "Distance Regular", "Regular (paper grouping)", "Extension", "CFI",
         "total"]


def paper_row(method):
    """(label, counts) of the paper's row for a method or model spec, or None (BrecPaperResults.forMethod)."""
    arch = method.strip().lower().split(":", 1)[0].strip()
    if arch in ("1-wl", "gin"):
        return "1-WL bound", (0, 0, 0, 0)
    name = _ALSO_CALLED.get(arch, arch).lower()
    for model, counts in PAPER.items():
        if model.lower() == name:
            return model, counts
    return None


def paper_count(row, name):
    """The paper's count for one of its categories or 'total'; None for any other name."""
    if name == "total":
        return sum(row[1])
    return row[1][PAPER_CATEGORIES.index(name)] if name in PAPER_CATEGORIES else None


def paper_name(row_name):
    """The paper's name for one of our rows (ResultSummary.paperName): our 100-pair Regular has none."""
    return {"Regular (paper grouping)": "Regular", "total": "total", "Regular": ""}.get(row_name, row_name)


def paper_size(name):
    if name in PAPER_CATEGORIES:
        return PAPER_SIZES[PAPER_CATEGORIES.index(name)]
    return sum(PAPER_SIZES) if name == "total" else 0


def short_name(spec):
    """SuiteSpecs.shortName: the file name without directories, extension or #options."""
    s = spec.strip()
    if s == "builtin":
        return s
    colon = s.find(":")
    form = s[:colon] if colon > 0 else ""
    name = s[max(s.rfind("/"), s.rfind("\\"), colon) + 1:]
    name = name.split("#", 1)[0]
    dot = name.rfind(".")
    if dot > 0:
        name = name[:dot]
    return name if name.strip() else (form or "unnamed")


def _counts(name, rows):
    """Category counts over pair results: pairs, distinguished, reliable, reliably distinguished, errors."""
    c = OrderedDict(name=name, pairs=0, distinguished=0, reliable=0, reliably_distinguished=0, errors=0)
    for r in rows:
        c["pairs"] += 1
        if r.HasField("error"):
            c["errors"] += 1
            continue
        p = r.pair
        c["distinguished"] += p.distinguished
        c["reliable"] += p.reliable
        c["reliably_distinguished"] += p.distinguished and p.reliable
    return c


def _sum(name, cats):
    out = OrderedDict(name=name, pairs=0, distinguished=0, reliable=0, reliably_distinguished=0, errors=0)
    for c in cats:
        for k in list(out)[1:]:
            out[k] += c[k]
    return out


class Configuration:
    """One method on one suite over all its seeds (SeedLeaderboard.Entry)."""

    def __init__(self, suite, method, label, by_seed):
        self.suite, self.method, self.label = suite, method, label
        self.by_seed = by_seed  # seed -> that seed's pair results, ascending seeds
        self.seed_runs = []
        self.errors_by_seed = OrderedDict()  # seed -> its pairs that ended in an error (seeds with any)
        for seed, rs in by_seed.items():
            errs = sum(1 for r in rs if r.HasField("error"))
            if errs:
                self.errors_by_seed[seed] = errs
            # an error result counts as neither distinguished nor reliable (a reliability failure)
            dist = sum(1 for r in rs if not r.HasField("error") and r.pair.distinguished)
            fails = sum(1 for r in rs if r.HasField("error") or not r.pair.reliable)
            self.seed_runs.append(OrderedDict(seed=seed, pairs=len(rs), distinguished=dist,
                                              reliability_failures=fails, real_correct=dist - fails))
        best = self.seed_runs[0]
        for run in self.seed_runs:
            if run["real_correct"] > best["real_correct"] or (
                    run["real_correct"] == best["real_correct"] and run["distinguished"] > best["distinguished"]):
                best = run
        self.best_seed = best["seed"]
        self.failing_seeds = [r["seed"] for r in self.seed_runs if r["reliability_failures"] > 0]
        # SeedLeaderboard.Entry.seedsFailingOnlyThroughErrors: every pair judged passed reliability
        self.failing_only_through_errors = [r["seed"] for r in self.seed_runs if r["reliability_failures"] > 0
                                            and r["reliability_failures"] == self.errors_by_seed.get(r["seed"], 0)]
        self.counts = not self.failing_seeds
        first = OrderedDict()  # categories in suite order: the lowest pair index seen under any seed
        for rs in by_seed.values():
            for r in rs:
                cat = r.pair.category
                first[cat] = min(first.get(cat, r.pair.pair_index), r.pair.pair_index)
        order = sorted(first, key=lambda c: first[c])  # stable: ties keep first-seen order, as Java's sort
        best_rows = by_seed[self.best_seed]
        self.categories = [c for c in (_counts(cat, [r for r in best_rows if r.pair.category == cat]) for cat in order)
                           if c["pairs"] > 0]

    @property
    def seeds(self):
        return len(self.seed_runs)

    @property
    def brec(self):
        """The suite is a BREC file with BREC's categories, so the paper's row applies."""
        names = [c["name"] for c in self.categories]
        return (self.suite.startswith("brec:") or self.suite.startswith("brec-raw:")) and bool(names) and all(
            n in OUR_CATEGORIES for n in names)

    @property
    def paper(self):
        return paper_row(self.method) if self.brec else None

    def paper_regular(self):
        cats = [c for c in self.categories if c["name"] in PAPER_REGULAR]
        return _sum("Regular (paper grouping)", cats) if cats else None

    def total(self):
        return _sum("total", self.categories)

    def lines(self, paper=None):
        """BrecComparison.lines: (our counts, the paper's count or None, the paper's category size) in
        BREC's column order. paper: a Table 2 model to set beside (default: the method's own row)."""
        row = paper_row(paper) if paper else self.paper
        out = []
        for name in ORDER:
            if name == "Regular (paper grouping)":
                ours = self.paper_regular()
            elif name == "total":
                ours = self.total()
            else:
                ours = next((c for c in self.categories if c["name"] == name), None)
            if ours is None:
                continue
            pname = paper_name(name)
            out.append((ours, paper_count(row, pname) if row else None, paper_size(pname)))
        return out

    def verdict(self):
        """BrecComparison.verdict: the seeds, the best one, and whether the configuration counts."""
        seeds = [r["seed"] for r in self.seed_runs]
        which = ("seed %d" % seeds[0] if len(seeds) == 1 else "%d seeds (%d..%d), best seed %d by BREC's rule"
                 % (len(seeds), seeds[0], seeds[-1], self.best_seed))
        if self.counts:
            return which + "; counts: no seed failed reliability"
        only = self.failing_only_through_errors
        fs = [s for s in self.failing_seeds if s not in only]
        why = []
        if fs:
            why.append("seed%s%s failed reliability" % (" " if len(fs) == 1 else "s ", ", ".join(str(s) for s in fs)))
        if only:
            why.append("seed%s%s only through pairs that ended in an error (resume to rerun them)" % (
                " " if len(only) == 1 else "s ", ", ".join(str(s) for s in only)))
        return which + "; does NOT count: " + "; ".join(why)

    def json(self):
        """The entry of `expresso results --json`'s leaderboard."""
        cats = list(self.categories)
        if self.brec and self.paper_regular():
            cats.append(self.paper_regular())
        cats.append(self.total())
        row = self.paper
        out = OrderedDict(suite=self.suite, method=self.method, best_seed=self.best_seed, counts=self.counts,
                          failing_seeds=self.failing_seeds, seeds=self.seed_runs)
        out["categories"] = [OrderedDict(c, paper=paper_count(row, paper_name(c["name"])) if row else None)
                             for c in cats]
        out["paper"] = None if row is None else OrderedDict(
            model=row[0], basic=row[1][0], regular=row[1][1], extension=row[1][2], cfi=row[1][3], total=sum(row[1]))
        return out


def leaderboard(results):
    """The pair configurations of an experiment's results, in first-seen order (SeedLeaderboard.of)."""
    groups = OrderedDict()  # (suite, method) -> seed -> results
    for r in results:
        if r.HasField("pair"):
            groups.setdefault((r.pair.suite_id, r.pair.method), {}).setdefault(r.pair.seed, []).append(r)
    suites_per_method = {}
    for _, method in groups:
        suites_per_method[method] = suites_per_method.get(method, 0) + 1
    out = []
    for (suite, method), by_seed in groups.items():
        label = method if suites_per_method[method] == 1 else "%s @ %s" % (method, short_name(suite) if suite else "?")
        out.append(Configuration(suite, method, label, OrderedDict(sorted(by_seed.items()))))
    return out


def rows(results, configurations):
    """ResultSummary.rows: per method, the best seed's categories; other kinds per kind; errors without
    a pair under method '?' and their task kind."""
    labels = {(c.suite, c.method): c.label for c in configurations}
    method_order, counts, reasons = [], OrderedDict(), {}
    for r in results:
        kind = r.provenance.task_kind
        if r.HasField("pair"):
            label = labels[(r.pair.suite_id, r.pair.method)]
            if label not in method_order:
                method_order.append(label)
            if r.HasField("error"):
                reasons[r.error.reason] = reasons.get(r.error.reason, 0) + 1
            continue
        if r.HasField("synthetic") or kind == "synthetic":
            method = category = "synthetic"
        elif r.HasField("train") or r.HasField("attack"):
            method = category = kind
        else:
            method, category = "?", kind or "undecodable"
        c = counts.setdefault((method, category), [0, 0, 0, 0])
        c[0] += 1
        if r.HasField("error"):
            c[3] += 1
            reasons[r.error.reason] = reasons.get(r.error.reason, 0) + 1
    for method, _ in counts:
        if method not in method_order:
            method_order.append(method)
    out = []
    for m in method_order:
        for conf in configurations:
            if conf.label == m:
                out.extend(OrderedDict(name=c["name"], method=m, tasks=c["pairs"], distinguished=c["distinguished"],
                                       reliable=c["reliable"], errors=c["errors"]) for c in conf.categories)
        out.extend(OrderedDict(name=cat, method=meth, tasks=c[0], distinguished=c[1], reliable=c[2], errors=c[3])
                   for (meth, cat), c in counts.items() if meth == m)
    return out, reasons


def summary_json(experiment, results, duplicate_records=0, superseded_errors=0):
    """The fields of `expresso results --json` that concern pair and synthetic tasks, the same values."""
    configurations = leaderboard(results)
    categories, reasons = rows(results, configurations)
    out = OrderedDict(experiment=experiment, unique_results=len(results), duplicates_in_report=0,
                      errors=sum(reasons.values()), categories=categories, duplicate_records=duplicate_records,
                      superseded_errors=superseded_errors)
    if any(c.seeds > 1 or c.brec for c in configurations):
        out["leaderboard"] = [c.json() for c in configurations]
    return out

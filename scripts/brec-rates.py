#!/usr/bin/env python3
"""Per-model rates of BREC pair tasks, and what a whole leaderboard would cost at those rates.

Reads the results (JSON lines, as `experiment brec --out` and `results --out` write them) of a run on a
sample of BREC's pairs and prints, per model and per BREC category (by pair index in brec_v3's order),
the compute seconds per pair task (n, median, mean, max), then the extrapolation to all 400 pairs x SEEDS:
device-seconds as the sum over categories of (pairs in the category x the category's mean), and the
wall time on SLOTS concurrent slots at the efficiency the run itself reached (the summed compute seconds
of its tasks over slots x its wall seconds, when --wall is given). A category the sample has no result for
is named, and left out of the sum (the extrapolation is then a lower bound, marked so).

usage: scripts/brec-rates.py RESULTS.jsonl... [--seeds 10] [--slots 16] [--wall SECONDS] [--markdown]
"""
import argparse
import collections
import json
import statistics
import sys

# brec_v3's order (suite/BrecBuilder): the paper's Regular split into its four parts
CATEGORIES = [("Basic", 0, 60), ("Simple regular", 60, 110), ("Strongly regular", 110, 160),
              ("Extension", 160, 260), ("CFI", 260, 360), ("4-vertex condition", 360, 380),
              ("Distance regular", 380, 400)]


def category(pair_index):
    for name, lo, hi in CATEGORIES:
        if lo <= pair_index < hi:
            return name
    raise ValueError(f"pair index {pair_index} is outside BREC's 400 pairs")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--seeds", type=int, default=10, help="seeds of the extrapolated leaderboard (default 10)")
    ap.add_argument("--slots", type=int, default=16, help="concurrent slots of the extrapolated run (default 16)")
    ap.add_argument("--wall", type=float, help="the sampled run's wall seconds, publish to last result")
    ap.add_argument("--markdown", action="store_true", help="tables as Markdown")
    a = ap.parse_args()

    seconds = collections.defaultdict(lambda: collections.defaultdict(list))  # model -> category -> [s]
    errors = collections.Counter()
    for path in a.results:
        try:
            f = open(path, encoding="utf-8")
        except OSError as e:
            sys.exit(f"brec-rates: cannot read {path}: {e.strerror}")
        with f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"{path}:{n}: not JSON ({e})")
                pair = r.get("pair")
                if not pair:
                    continue
                model = pair.get("method", "?").split(":")[0]
                if r.get("error"):
                    errors[model] += 1
                    continue
                s = float(r.get("provenance", {}).get("compute_seconds", "nan"))
                try:
                    seconds[model][category(int(pair.get("pair_index", 0)))].append(s)
                except ValueError as e:
                    sys.exit(f"{path}:{n}: {e}")
    if not seconds:
        sys.exit("no pair results in " + ", ".join(a.results))

    sep = " | " if a.markdown else "  "
    names = [c[0] for c in CATEGORIES]
    head = ["model"] + names + ["results", "errors", f"400x{a.seeds} device-h", "by medians", f"on {a.slots} slots, h"]
    print(("| " if a.markdown else "") + sep.join(head) + (" |" if a.markdown else ""))
    if a.markdown:
        print("|" + "---|" * len(head))
    total_compute = 0.0
    total_device = 0.0
    efficiency = None
    if a.wall:
        all_s = sum(sum(v) for m in seconds.values() for v in m.values())
        efficiency = all_s / (a.slots * a.wall)
    for model in sorted(seconds):
        cells, device, device_median, missing = [], 0.0, 0.0, []
        for name, lo, hi in CATEGORIES:
            v = seconds[model].get(name, [])
            if v:
                cells.append(f"{statistics.median(v):.1f}/{statistics.fmean(v):.1f}/{max(v):.1f} ({len(v)})")
                device += (hi - lo) * statistics.fmean(v) * a.seeds
                device_median += (hi - lo) * statistics.median(v) * a.seeds
            else:
                cells.append("-")
                missing.append(name)
        n = sum(len(v) for v in seconds[model].values())
        total_compute += sum(sum(v) for v in seconds[model].values())
        total_device += device
        bound = ">=" if missing else ""
        wall = device / a.slots / (efficiency if efficiency else 1.0)
        row = [model] + cells + [str(n), str(errors[model]), f"{bound}{device / 3600:.2f}",
                                                          f"{bound}{device_median / 3600:.2f}", f"{bound}{wall / 3600:.2f}"]
        print(("| " if a.markdown else "") + sep.join(row) + (" |" if a.markdown else ""))
    print()
    print("cells: median/mean/max compute seconds per pair task (results); device-h: sum over categories of pairs x mean"
          f" x {a.seeds} seeds (by medians: x median, which discounts a few starved tasks); wall: device-h / {a.slots} slots" + (f" / the run's efficiency {efficiency:.2f}"
          f" (its compute seconds {total_compute:.0f} over {a.slots} slots x {a.wall:.0f} s wall)" if efficiency else
          " (perfect packing; --wall gives the run's own efficiency)") + "; >=: a category without results left out")
    wall_all = total_device / a.slots / (efficiency if efficiency else 1.0)
    print(f"all models: {total_device / 3600:.2f} device-h, {wall_all / 3600:.2f} h on {a.slots} slots")


if __name__ == "__main__":
    main()

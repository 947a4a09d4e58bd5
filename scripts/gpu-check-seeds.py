#!/usr/bin/env python3
"""Per-seed verdicts of a BREC run from `expresso results --out`'s results.jsonl (scripts/gpu-check):
for every seed, each category's reliably distinguished pairs and reliability failures, plus the
compute seconds per task and how results spread over devices and precisions.

usage: scripts/gpu-check-seeds.py EXPERIMENT.results.jsonl"""
import collections
import json
import sys

rows = collections.defaultdict(lambda: collections.Counter())
cats, devices, seconds, errors = [], collections.Counter(), [], 0
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        r = json.loads(line)
        prov = r.get("provenance", {})
        devices[(prov.get("device", "?"), prov.get("precision", "?"), prov.get("versions", ""))] += 1
        if "error" in r:
            errors += 1
            continue
        p = r.get("pair", {})
        seed, cat = int(p.get("seed", 0)), p.get("category", "?")
        if cat not in cats:
            cats.append(cat)
        c = rows[seed]
        c[cat, "pairs"] += 1
        c[cat, "rd"] += 1 if p.get("distinguished", False) and p.get("reliable", False) else 0
        c[cat, "fail"] += 0 if p.get("reliable", False) else 1
        seconds.append(float(prov.get("compute_seconds", prov.get("computeSeconds", 0))))

print("seed | " + " | ".join(cats) + " | total | reliability failures")
for seed in sorted(rows):
    c = rows[seed]
    total = sum(c[k, "rd"] for k in cats)
    fails = sum(c[k, "fail"] for k in cats)
    print(f"{seed} | " + " | ".join(f"{c[k, 'rd']}/{c[k, 'pairs']}" for k in cats) + f" | {total} | {fails}")
if seconds:
    seconds.sort()
    print(f"tasks {len(seconds)}, errors {errors}; compute seconds per task: median {seconds[len(seconds) // 2]:.3f},"
          f" sum {sum(seconds):.0f}")
for (device, precision, versions), n in sorted(devices.items()):
    print(f"{n} results on {device} at {precision} ({versions})")

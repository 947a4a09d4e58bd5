#!/usr/bin/env python3
"""scripts/eval-diff.py A.jsonl B.jsonl: two eval results files compared pair by pair, bit for bit (T2, verdicts, epochs, loss); exit 1 on any difference."""
import json, sys

def load(path):
    lines = [json.loads(l) for l in open(path) if l.strip()]
    config = lines[0]["config"]
    return config, {(r["seed"], r["index"]): r for r in lines[1:]}

ca, a = load(sys.argv[1])
cb, b = load(sys.argv[2])
keys = ("t2_test", "t2_reliability", "threshold", "distinguished", "reliable", "epochs", "final_loss")
print("configurations equal:", ca == cb)
print("pairs:", len(a), "and", len(b), "; same pairs:", sorted(a) == sorted(b))
diff = [(k, f, a[k][f], b[k][f]) for k in sorted(set(a) & set(b)) for f in keys if a[k][f] != b[k][f]]
for d in diff:
    print("differs: seed %s pair %s %s: %r vs %r" % (d[0][0], d[0][1], d[1], d[2], d[3]))
print("fields compared:", ", ".join(keys), "; differences:", len(diff))
sys.exit(1 if diff or sorted(a) != sorted(b) or ca != cb else 0)

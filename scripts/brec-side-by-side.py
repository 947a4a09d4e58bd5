#!/usr/bin/env python3
"""Expresso's PPGN beside BREC's own PPGN script, on the same pairs of the same brec_v3.npy, on one
machine: both verdicts and the seconds per pair, per category.

The reference is GraphPKU/BREC's ProvablyPowerfulGraphNetworks_torch/main_scripts/test_BREC.py, taken
from a clone you name (never part of this project) and run unchanged by the Python you name (it needs
torch, torch_geometric, numpy, networkx, tqdm, loguru, easydict). Its part_dict is narrowed to the
pairs asked for: the script is executed in a namespace of our own and part_dict is cut before main()
runs; nothing else of it changes. Its seconds per pair are read from its log ('ID:' line to the pair's
'reliability:' line); Expresso's from the 'seconds' of each JSONL line (model creation, training,
embedding pass, judgement). The two run one after the other, never at once. By default each of
Expresso's pairs has the machine to itself, as the reference's pairs have it (--pairs-at-once 1);
`expresso eval` itself judges one pair per core at once, and --pairs-at-once 0 runs it so (any other
N is passed on). Either way the notes give both sides' time judging all the pairs (Expresso's eval
'elapsed', the reference's pairs' seconds summed): the throughput a user sees.

usage:
  scripts/brec-side-by-side.py --brec PATH_TO_BREC_CLONE --raw ../shared/data/brec-raw \
      [--python PY] [--device cpu|gpu:N] [--pairs 0-159,260-299] [--work DIR] [--out FILE.md] \
      [--expresso 'scripts/expresso'] [--expresso-args '...'] [--pairs-at-once 1] [--seed 0] [--ref-seed 100]
      [--rounds 3]

--brec is a clone (a work tree) or a bare git directory of GraphPKU/BREC. --raw builds brec_v3.npy
with `expresso suite build-brec`; --brec-file uses a file you have. --pythonpath adds folders to the
reference's PYTHONPATH (e.g. one holding loguru and easydict). On a GPU (--device gpu:N) the reference
sees only that GPU (CUDA_VISIBLE_DEVICES=N); on the CPU it sees none. Results: a Markdown table on
stdout and in --out, every pair in --out's .json beside it. With --rounds N the two run in turn N
times and the table gives every round's ratio and the medians over rounds: on a shared or virtual
machine whose speed drifts from minute to minute, one round's medians alone can differ by a third.
"""
import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import io
import time

# test_BREC.py's part_dict (its 'ID: k' log lines count from the part's start)
BREC_PARTS = [
    ("Basic", 0, 60),
    ("Regular", 60, 160),
    ("Extension", 160, 260),
    ("CFI", 260, 360),
    ("4-Vertex_Condition", 360, 380),
    ("Distance_Regular", 380, 400),
]
REF_DIR = "ProvablyPowerfulGraphNetworks_torch"

# Runs test_BREC.py unchanged but for part_dict, narrowed to the parts given as JSON in argv[2].
LIMITER = r'''
import json, sys
script, parts = sys.argv[1], json.loads(sys.argv[2])
sys.argv = [script] + sys.argv[3:]
ns = {"__name__": "test_BREC_limited", "__file__": script, "__builtins__": __builtins__}
exec(compile(open(script, encoding="utf-8").read(), script, "exec"), ns)
ns["part_dict"].clear()
ns["part_dict"].update({k: tuple(v) for k, v in parts.items()})
print("part_dict narrowed to", ns["part_dict"], flush=True)
ns["main"]()
'''

LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) \| \w+\s*\| .*? - (.*)$")
EVAL_ELAPSED = re.compile(r"elapsed ([0-9.]+) s in this run, (\d+) pairs? at once")
TENSOR = re.compile(r"tensor\(\[*\s*([-+0-9.eEinfatn]+)")


def parse_pairs(text):
    out = []
    for part in text.split(","):
        a, _, b = part.strip().partition("-")
        lo, hi = int(a), int(b or a)
        if lo > hi or hi >= 400:
            raise SystemExit(f"--pairs: bad range '{part}' (BREC pairs are 0-399)")
        out.append((lo, hi))
    return out


def category(index):
    for name, lo, hi in BREC_PARTS:
        if lo <= index < hi:
            return name
    return "?"


def narrowed_parts(ranges):
    """part_dict entries (name -> [start, end)) covering exactly the ranges; a second piece of a part gets '#2'."""
    parts = {}
    for name, lo, hi in BREC_PARTS:
        k = 0
        for a, b in ranges:
            s, e = max(lo, a), min(hi, b + 1)
            if s < e:
                k += 1
                parts[name if k == 1 else f"{name}#{k}"] = [s, e]
    return parts


def uptime():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return "load average " + " ".join(f.read().split()[:3])
    except OSError:
        return "load average unknown"


def run(cmd, log, env=None, cwd=None):
    print(f"$ {' '.join(shlex.quote(c) for c in cmd)}", file=sys.stderr, flush=True)
    t = time.monotonic()
    with open(log, "w", encoding="utf-8") as f:
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    return rc, time.monotonic() - t


def fetch_reference(brec, dest):
    """BREC's PPGN folder from a work tree or a git directory, into dest."""
    if os.path.isdir(os.path.join(brec, REF_DIR)):
        shutil.copytree(os.path.join(brec, REF_DIR), dest)
    else:
        tar = subprocess.run(["git", f"--git-dir={brec}", "archive", "HEAD", REF_DIR], check=True,
                             capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            for m in t.getmembers():
                if m.name.startswith(REF_DIR + "/"):
                    m.name = m.name[len(REF_DIR) + 1:]
                    t.extract(m, dest)
    cfg = os.path.join(dest, "configs", "BREC.json")
    # test_BREC.py sets CUDA_VISIBLE_DEVICES from the config's "gpu" ("1" as published): we set it ourselves
    with open(cfg, encoding="utf-8") as f:
        c = json.load(f)
    c["gpu"] = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    with open(cfg, "w", encoding="utf-8") as f:
        json.dump(c, f, indent=2)


def read_reference(log, parts):
    """{index: {distinguished, reliable, t2, seconds, epochs}} from test_BREC.py's loguru log."""
    out, part, cur = {}, None, None
    starts = {name: se[0] for name, se in parts.items()}
    if not os.path.exists(log):
        return out
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LOG_LINE.match(line.rstrip("\n"))
            if not m:
                continue
            t = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f")
            msg = m.group(2)
            if msg.endswith(" part starting ---"):
                part = msg[: -len(" part starting ---")]
            elif msg.startswith("ID: ") and part in starts:
                cur = {"index": starts[part] + int(msg[4:]), "start": t, "epochs": 0}
            elif cur is not None and msg.startswith("Loss: "):
                cur["epochs"] += 1
            elif cur is not None and msg.startswith("isomorphic: "):
                cur["distinguished"] = msg.split()[1] == "True"
                v = TENSOR.search(msg)
                cur["t2_test"] = float(v.group(1)) if v else None
            elif cur is not None and msg.startswith("reliability: "):
                cur["reliable"] = msg.split()[1] == "True"
                cur["seconds"] = (t - cur.pop("start")).total_seconds()
                out[cur["index"]] = cur
                cur = None
    return out


def read_expresso(paths):
    out = {}
    for p in paths:
        if not os.path.exists(p):
            continue
        with open(p, encoding="utf-8") as f:
            for line in f:
                try:
                    o = json.loads(line)
                except ValueError:
                    continue  # a line cut short
                if "index" in o and "distinguished" in o:
                    out[int(o["index"])] = o
    return out


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def table(ex, ref, ranges):
    wanted = [i for a, b in ranges for i in range(a, b + 1)]
    common = [i for i in wanted if i in ex and i in ref]
    rows = []
    for name, lo, hi in BREC_PARTS + [("total", 0, 400)]:
        idx = [i for i in common if lo <= i < hi]
        if not idx:
            continue
        e = [ex[i] for i in idx]
        r = [ref[i] for i in idx]
        em, rm = median([x["seconds"] for x in e]), median([x["seconds"] for x in r])
        rows.append({
            "category": name, "pairs": len(idx),
            "expresso_distinguished": sum(x["distinguished"] and x["reliable"] for x in e),
            "reference_distinguished": sum(x["distinguished"] and x["reliable"] for x in r),
            "expresso_reliability_failures": sum(not x["reliable"] for x in e),
            "reference_reliability_failures": sum(not x["reliable"] for x in r),
            "agree": sum(ex[i]["distinguished"] == ref[i]["distinguished"] for i in idx),
            "expresso_median_s": em, "reference_median_s": rm,
            "expresso_total_s": sum(x["seconds"] for x in e), "reference_total_s": sum(x["seconds"] for x in r),
            "ratio": em / rm if rm > 0 else float("nan"),
        })
    lines = [
        "| category | pairs | reliably distinguished E / R | reliability failures E / R | verdicts agree |"
        " median s/pair E | median s/pair R | E / R | total s E | total s R |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for w in rows:
        lines.append(
            f"| {w['category']} | {w['pairs']} | {w['expresso_distinguished']} / {w['reference_distinguished']} | "
            f"{w['expresso_reliability_failures']} / {w['reference_reliability_failures']} | {w['agree']} / {w['pairs']} | "
            f"{w['expresso_median_s']:.3f} | {w['reference_median_s']:.3f} | {w['ratio']:.2f} | "
            f"{w['expresso_total_s']:.1f} | {w['reference_total_s']:.1f} |")
    differ = [i for i in common if ex[i]["distinguished"] != ref[i]["distinguished"]]
    missing = [i for i in wanted if i not in common]
    return rows, lines, differ, missing


def prepare_reference(a, brec_file, gpu):
    """BREC's PPGN folder in WORK/ref, its dataset converted once (minutes, kept in WORK/ref-data and
    out of the timing); returns the reference's environment and folder."""
    ref = os.path.join(a.work, "ref")
    shutil.rmtree(ref, ignore_errors=True)
    env = dict(os.environ)
    env["CUDA_VISIBLE_DEVICES"] = a.device.split(":", 1)[1] if gpu else ""
    fetch_reference(a.brec, ref)
    # the reference reads Data/raw/brec_v3.npy and converts it once to Data/no_param/processed
    data = os.path.join(a.work, "ref-data")
    raw = os.path.join(data, "raw", "brec_v3.npy")
    processed = os.path.join(data, "no_param", "processed", "brec_v3_numlabel=0.pt")
    if os.path.exists(processed) and os.path.getmtime(processed) < os.path.getmtime(brec_file):
        shutil.rmtree(os.path.join(data, "no_param"))
    os.makedirs(os.path.dirname(raw), exist_ok=True)
    if os.path.lexists(raw):
        os.remove(raw)
    os.symlink(brec_file, raw)
    shutil.rmtree(os.path.join(ref, "Data"), ignore_errors=True)
    os.symlink(data, os.path.join(ref, "Data"))
    env["PYTHONPATH"] = ":".join(p for p in [a.pythonpath, env.get("PYTHONPATH", "")] if p)
    env["PYTHONUNBUFFERED"] = "1"
    rc, _ = run([a.python, "-c", "from BRECDataset_v3 import BRECDataset; print(len(BRECDataset()))"],
                os.path.join(a.work, "reference-dataset.log"), env=env, cwd=ref)
    if rc != 0:
        raise SystemExit(f"the reference's dataset step failed (rc {rc}), see {a.work}/reference-dataset.log")
    return env, ref


def summary(rounds):
    """Per category over the rounds: the median of each side's median seconds per pair, and every
    round's ratio E / R (the ratio within a round is what a drifting machine leaves intact)."""
    names = [w["category"] for w in rounds[0][2]]
    rows, lines = [], [
        "| category | pairs | median s/pair E (median of rounds) | median s/pair R | E / R by round | "
        "median E / R |",
        "|---|---|---|---|---|---|",
    ]
    for name in names:
        per = [next(w for w in r[2] if w["category"] == name) for r in rounds]
        ratios = [w["ratio"] for w in per]
        row = {"category": name, "pairs": per[0]["pairs"],
               "expresso_median_s": median([w["expresso_median_s"] for w in per]),
               "reference_median_s": median([w["reference_median_s"] for w in per]),
               "ratios": ratios, "median_ratio": median(ratios)}
        rows.append(row)
        lines.append(f"| {name} | {row['pairs']} | {row['expresso_median_s']:.3f} | {row['reference_median_s']:.3f} | "
                     + " ".join(f"{x:.2f}" for x in ratios) + f" | **{row['median_ratio']:.2f}** |")
    lines += ["", f"last round ({len(rounds)}):", ""] + rounds[-1][3]
    return rows, lines


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brec", required=True, help="a clone or git directory of GraphPKU/BREC")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--raw", help="BREC's raw files: brec_v3.npy is built from them by `expresso suite build-brec`")
    src.add_argument("--brec-file", help="an existing brec_v3.npy")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs the reference (default: this one)")
    ap.add_argument("--pythonpath", default="", help="folders put before the reference's PYTHONPATH (':'-separated)")
    ap.add_argument("--device", default="cpu", help="cpu or gpu:N, for both (default cpu)")
    ap.add_argument("--pairs", default="0-159,260-299", help="ranges of BREC pair indices, e.g. 0-159,260-299")
    ap.add_argument("--expresso", default=os.path.join(here, "expresso"), help="the command that runs Expresso")
    ap.add_argument("--expresso-args", default="", help="more arguments for `expresso eval` (e.g. '--memory-budget 1g')")
    ap.add_argument("--pairs-at-once", type=int, default=1,
                    help="Expresso's pairs judged at once (default 1: each pair alone, as the reference's; 0: eval's"
                    " own default, one per two cores)")
    ap.add_argument("--seed", type=int, default=0, help="Expresso's seed (default 0)")
    ap.add_argument("--ref-seed", type=int, default=100, help="test_BREC.py --SEED (default 100, BREC's first)")
    ap.add_argument("--work", default="/tmp/brec-side-by-side", help="work folder (emptied first)")
    ap.add_argument("--out", default=None, help="write the Markdown table here (and every pair to its .json)")
    ap.add_argument("--skip", choices=["expresso", "reference", "both"],
                    help="run only the other one, or neither (reads the last run's files)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run Expresso then the reference this many times in turn, each round in WORK/round-K, and "
                    "report every round's ratio and the medians over rounds (default 1)")
    ap.add_argument("--reference-log", help="with --skip reference or both: the reference-log.txt files of earlier runs"
                    " (','-separated, e.g. one per range), read instead of the work folder's")
    ap.add_argument("--prepare-only", action="store_true",
                    help="only convert the reference's dataset into WORK/ref-data (kept by later runs with the same"
                    " --work), e.g. in the background while something else runs, then stop")
    a = ap.parse_args()

    ranges = parse_pairs(a.pairs)
    if a.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    if a.pairs_at_once < 0:
        raise SystemExit("--pairs-at-once must be 0 (eval's default) or more")
    gpu = a.device.startswith("gpu")
    if a.skip is None and os.path.isdir(a.work):
        for name in os.listdir(a.work):  # all but the reference's converted dataset (minutes to make)
            if name != "ref-data":
                p = os.path.join(a.work, name)
                shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.remove(p)
    os.makedirs(a.work, exist_ok=True)
    expresso = shlex.split(a.expresso)
    notes = [f"pairs {a.pairs}, device {a.device}, {os.cpu_count()} CPUs, {uptime()} at the start"]

    brec_file = a.brec_file
    if a.raw:
        brec_file = os.path.join(a.work, "brec_v3.npy")
        if not os.path.exists(brec_file):
            rc, _ = run(expresso + ["suite", "build-brec", "--raw", a.raw, "--out", brec_file],
                        os.path.join(a.work, "build-brec.log"))
            if rc != 0:
                raise SystemExit(f"build-brec failed (rc {rc}), see {a.work}/build-brec.log")
    brec_file = os.path.abspath(brec_file)

    if a.prepare_only:
        t0 = time.time()
        prepare_reference(a, brec_file, gpu)
        print(f"the reference's dataset is ready in {os.path.join(a.work, 'ref-data')} ({time.time() - t0:.1f} s)")
        return 0

    # ---- the rounds: Expresso, then the reference, in turn (never at once); a machine whose speed
    # drifts moves both alike within a round, so the ratio of a round is the figure to trust
    parts = narrowed_parts(ranges)
    rounds = []
    ref_ready = False
    for k in range(1, a.rounds + 1):
        ex_judging = None
        out_dir = a.work if a.rounds == 1 else os.path.join(a.work, f"round-{k}")
        os.makedirs(out_dir, exist_ok=True)
        ex_files = [os.path.join(out_dir, f"expresso-{lo}-{hi}.jsonl") for lo, hi in ranges]
        if a.skip not in ("expresso", "both"):
            wall, judging, at_once = 0.0, 0.0, set()
            for (lo, hi), res in zip(ranges, ex_files):
                log = os.path.join(out_dir, f"expresso-{lo}-{hi}.log")
                rc, s = run(expresso + ["eval", "--model", "ppgn", "--suite", f"brec:{brec_file}", "--pairs", f"{lo}-{hi}",
                                        "--device", a.device, "--seed", str(a.seed), "--results", res, "--no-resume"]
                            + (["--pairs-at-once", str(a.pairs_at_once)] if a.pairs_at_once > 0 else [])
                            + shlex.split(a.expresso_args), log)
                wall += s
                if rc not in (0, 1):
                    print(f"expresso eval {lo}-{hi} ended with rc {rc}", file=sys.stderr)
                m = EVAL_ELAPSED.search(open(log, encoding="utf-8", errors="replace").read())
                if m:
                    judging += float(m.group(1))
                    at_once.add(m.group(2))
            notes.append(f"round {k}: Expresso {wall:.1f} s wall for every range (JVM start-up included), {uptime()} after")
            ex_judging = (judging, "/".join(sorted(at_once)))
        ref_log = os.path.join(out_dir, "reference-log.txt")
        if a.skip not in ("reference", "both"):
            if not ref_ready:
                env, ref = prepare_reference(a, brec_file, gpu)
                ref_ready = True
            res = os.path.join(ref, "result_BREC")
            shutil.rmtree(res, ignore_errors=True)
            rc, s = run([a.python, "-c", LIMITER, os.path.join(ref, "main_scripts", "test_BREC.py"), json.dumps(parts),
                         "--config", "configs/BREC.json", f"--SEED={a.ref_seed}"],
                        os.path.join(out_dir, "reference-stdout.txt"), env=env, cwd=os.path.join(ref, "main_scripts"))
            logs = sorted((os.path.join(r, f) for r, _, fs in os.walk(res) for f in fs if f.startswith("log")),
                          key=os.path.getmtime)  # loguru rotates log.txt at 5 MB
            with open(ref_log, "w", encoding="utf-8") as out:
                for l in logs:
                    with open(l, encoding="utf-8", errors="replace") as f:
                        out.write(f.read())
            notes.append(f"round {k}: reference rc {rc}, {s:.1f} s wall (Python start-up and dataset load included), "
                         f"{uptime()} after")
        ex = read_expresso(ex_files)
        refd = {}
        for log in (a.reference_log.split(",") if a.reference_log else [ref_log]):
            refd.update(read_reference(log, parts))
        rounds.append((ex, refd) + table(ex, refd, ranges))
        if ex_judging and ex_judging[0] > 0 and refd:
            # the throughput a user sees: Expresso's pairs may run side by side (--pairs-at-once), the
            # reference's one after another
            r_sum = sum(refd[i]["seconds"] for i in ex if i in refd)
            notes.append(f"round {k}: time judging the pairs, Expresso {ex_judging[0]:.1f} s ({ex_judging[1]} at once;"
                         f" its eval's 'elapsed'), reference {r_sum:.1f} s (its pairs' seconds summed), "
                         f"E / R {ex_judging[0] / r_sum:.2f}")

    ex, refd, rows, lines, differ, missing = rounds[-1]
    if len(rounds) > 1:
        rows, lines = summary(rounds)
    at_once = f"--pairs-at-once {a.pairs_at_once} " if a.pairs_at_once > 0 else ""
    command = f"eval --model ppgn --device {a.device} --seed {a.seed} {at_once}{a.expresso_args}".strip()
    report = [f"Expresso `{command}` (E) beside BREC's `test_BREC.py --SEED={a.ref_seed}` (R), "
              f"`{os.path.basename(brec_file)}`", ""] + lines + [""]
    report.append("verdicts agree on every common pair" if not differ else
                  f"verdicts differ on {len(differ)} pairs: " + ", ".join(
                      f"{i} (E {'Y' if ex[i]['distinguished'] else 'N'}, R {'Y' if refd[i]['distinguished'] else 'N'})"
                      for i in differ))
    if missing:
        report.append(f"{len(missing)} pairs not judged by both: {missing[:20]}{' ...' if len(missing) > 20 else ''}")
    report += [""] + notes
    text = "\n".join(report)
    print(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        with open(os.path.splitext(a.out)[0] + ".json", "w", encoding="utf-8") as f:
            json.dump({"rows": rows, "rounds": [r[2] for r in rounds], "expresso": ex, "reference": refd,
                       "notes": notes}, f, indent=1, default=str)
    return 0 if not differ and not missing else 1


if __name__ == "__main__":
    sys.exit(main())

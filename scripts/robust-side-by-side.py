#!/usr/bin/env python3
"""Campi et al.'s count models in their own training loop beside Expresso's train-only path, on the same SBM graphs.

The reference is francesco-campi/Rob-Subgraphs, run from a fetched copy (never part of this project): their I2GNN
(src/I2GNN/I2GNN.py, subgraphs by their create_subgraphs2, batches by their Batch) and PPGN (src/ppgn/ppgn.py, inputs
as their GraphDataset builds them), trained by their train_epoch and evaluate_epoch, taken unchanged from
pipelines/GNN_train.py (the rest of that file needs seml, sacred, wandb and dgl, so the epoch driver here follows
its run(): Adam, ReduceLROnPlateau on the validation loss, L1 on raw counts; each epoch trains, then evaluates the
train set, then the validation set). Expresso trains through `expresso up` and `publish train --scale paper
--graphs N --max-epochs E` (the same recipe); its per-epoch validation l1 and times come from the worker's log.

The graphs: `expresso count generate --model sbm --seed 20240601 --study-split` writes the study's own split (the
graphs and the 30/20/50 split a train task of --graphs N uses), which the reference reads.

Timings are ratios of back-to-back runs in alternating order (round r runs the reference first when r is even),
each side's median seconds per epoch over epochs 2..E (epoch 1 holds the warm-up); the machine may be shared.
Round r trains seed SEED + r on both sides, so the rounds' validation curves also show each side's seed spread.
The record also says how many cores the `expresso up` JVM's threads other than training (embedded broker, aggregator,
live page, JIT, GC) took while each side ran: on one machine they take them from either side.
Both sides run the same intra-op threads and, unless --reference-omp default, the OpenMP wait policy Expresso's
engine sets (OMP_WAIT_POLICY=PASSIVE, GOMP_SPINCOUNT=30000; PyTorch's default spins, which on a loaded machine
takes the cores its own working threads need).

usage (a Python with torch and torch_geometric; scipy and networkx as their utils import them):
  /work/venv-brec/bin/python scripts/robust-side-by-side.py --rob /work/.mirror/francesco-campi+Rob-Subgraphs/repo \
      --graphs 200 --epochs 5 --out docs/results/robustness-side-by-side.md
"""
import argparse, ast, math, os, re, statistics, subprocess, sys, tempfile, time, types
from datetime import datetime

DATA_SEED = 20240601
PAPER = {"lr": 1e-3, "batch": 16, "plateau_factor": 0.5, "plateau_patience": 20}
HOPS = {"triangle": 1, "2-path": 2, "4-clique": 1, "chordal-cycle": 2, "tailed-triangle": 2, "3-star": 2,
        "4-cycle": 2, "3-path": 3}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


def reference_sources(rob, work):
    """Their src/ and pipelines/ from a work tree or a git directory (extracted, never copied into the project)."""
    if os.path.isdir(os.path.join(rob, "src", "I2GNN")):
        return rob
    dest = os.path.join(work, "rob")
    if not os.path.isdir(os.path.join(dest, "src")):
        os.makedirs(dest, exist_ok=True)
        archive = subprocess.run(["git", "--git-dir", rob, "archive", "HEAD", "src", "pipelines"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
    return dest


def import_reference(src):
    sys.path.insert(0, src)
    # torch_scatter is imported by their modules; PyG's scatter does what the imported names do
    import torch_geometric.utils as pu
    ts = types.ModuleType("torch_scatter")
    ts.scatter_mean = lambda s, i, dim=0, **k: pu.scatter(s, i, dim, reduce="mean")
    ts.scatter_add = lambda s, i, dim=0, **k: pu.scatter(s, i, dim, reduce="sum")
    ts.scatter_min = lambda s, i, dim=0, **k: (pu.scatter(s, i, dim, reduce="min"), None)
    sys.modules.setdefault("torch_scatter", ts)
    # their Batch (a copy of PyG 1.x's) reads `data.keys` as an attribute; PyG 2 made it a method: a list that can
    # also be called serves both (their code unchanged, PyG's own calls unchanged)
    from torch_geometric.data import Data

    class Keys(list):
        def __call__(self):
            return list(self)
    if not getattr(Data, "_keys_shim", False):
        method = Data.keys
        Data.keys = property(lambda self: Keys(method(self)))
        Data._keys_shim = True
    from src.I2GNN.I2GNN import I2GNN
    from src.I2GNN.utils import create_subgraphs2
    from src.I2GNN.batch import Batch
    from src.ppgn.ppgn import PPGN
    # their loop's two functions, unchanged, from pipelines/GNN_train.py
    tree = ast.parse(open(os.path.join(src, "pipelines", "GNN_train.py")).read())
    wanted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("train_epoch", "evaluate_epoch")]
    import torch
    ns = {"torch": torch}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), "GNN_train.py", "exec"), ns)
    return types.SimpleNamespace(I2GNN=I2GNN, create_subgraphs2=create_subgraphs2, Batch=Batch, PPGN=PPGN,
                                 train_epoch=ns["train_epoch"], evaluate_epoch=ns["evaluate_epoch"])


def read_part(prefix, part, pattern):
    import networkx as nx
    graphs = nx.read_graph6(f"{prefix}.{part}.g6")
    graphs = graphs if isinstance(graphs, list) else [graphs]
    lines = open(f"{prefix}.{part}.csv").read().split("\n")
    col = lines[0].split(",").index(pattern)
    counts = [float(l.split(",")[col]) for l in lines[1:] if l]
    assert len(counts) == len(graphs), (part, len(counts), len(graphs))
    return graphs, counts


def reference_data(ref, model, graphs, counts, hops):
    """Their inputs: PPGN as GraphDataset (ones on the nodes, y [[count]]), I2GNN as adj2data + create_subgraphs2."""
    import numpy as np, networkx as nx, torch
    from torch_geometric.data import Data
    out = []
    for g, c in zip(graphs, counts):
        a = nx.to_numpy_array(g, nodelist=range(g.number_of_nodes()))
        begin, end = np.where(a == 1.)
        ei = torch.tensor(np.array([begin, end]))
        if model == "ppgn":
            out.append(Data(torch.ones((g.number_of_nodes(), 1)), ei, y=torch.tensor([[c]])).coalesce())
        else:
            d = Data(edge_index=ei, y=torch.tensor([[c]]), num_nodes=torch.tensor([g.number_of_nodes()]))
            out.append(ref.create_subgraphs2(d, hops))
    return out


def run_reference(ref, model, data, epochs, seed, batch):
    import torch
    from torch_geometric.loader import DataLoader
    from torch.utils.data import DataLoader as TorchLoader
    torch.manual_seed(seed)
    if model == "ppgn":
        train = DataLoader(dataset=data["train"], batch_size=batch, shuffle=True)
        val = DataLoader(dataset=data["validation"], batch_size=batch, shuffle=False)
        gnn = ref.PPGN(1, 128, 64, 4, 2)   # Expresso's paper recipe: ppgn:in=1,hidden=128,d=64,layers=4,depth=2
    else:
        collate = lambda b: ref.Batch.from_data_list(b, [])   # their I2GNNDataLoader's collate for Data
        train = TorchLoader(data["train"], batch, shuffle=True, collate_fn=collate)
        val = TorchLoader(data["validation"], batch, shuffle=False, collate_fn=collate)
        gnn = ref.I2GNN(num_layers=5)
    opt = torch.optim.Adam(params=gnn.parameters(), lr=PAPER["lr"])
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer=opt, factor=PAPER["plateau_factor"],
                                                       patience=PAPER["plateau_patience"])
    loss = torch.nn.L1Loss()
    rows = []
    for e in range(1, epochs + 1):
        t0 = time.perf_counter()
        ref.train_epoch(train, gnn, opt, loss, "cpu")
        t1 = time.perf_counter()
        train_l1 = ref.evaluate_epoch(train, gnn, loss, "cpu").item()
        t2 = time.perf_counter()
        val_l1 = ref.evaluate_epoch(val, gnn, loss, "cpu").item()
        t3 = time.perf_counter()
        sched.step(val_l1)
        rows.append({"epoch": e, "val": val_l1, "train": train_l1, "s": (t1 - t0) + (t3 - t2), "s_theirs": t3 - t0})
        print(f"reference {model} epoch {e}: validation l1 {val_l1:.4f}, train+validation {rows[-1]['s']:.2f} s"
              f" (their epoch with the train-set pass {t3 - t0:.2f} s)", flush=True)
    return rows


LOG_LINE = re.compile(r"^(\d\d):(\d\d):(\d\d)\.(\d\d\d) .*? (\S+) epoch (\d+): train l1 (\S+), validation l1 (\S+), lr")


def run_expresso(args, uplog, experiment, model, pattern, seed):
    before = os.path.getsize(uplog)
    out = sh([args.expresso, "publish", "train", "--bootstrap", args.bootstrap, "--experiment", experiment, "--scale",
              "paper", "--dataset", "sbm", "--model", model, "--pattern", pattern, "--seeds", str(seed), "--graphs",
              str(args.graphs), "--max-epochs", str(args.epochs), "--learning-rate", str(PAPER["lr"]),
              "--batch-size", str(PAPER["batch"])])
    key = [l.strip() for l in out.splitlines() if l.startswith("  ")][-1]
    sh([args.expresso, "results", "--bootstrap", args.bootstrap, "--experiment", experiment, "--wait", "1",
        "--timeout", str(args.timeout)])
    rows, last = [], None
    with open(uplog, errors="replace") as f:
        f.seek(before)
        for line in f:
            m = LOG_LINE.match(line)
            if m and m.group(5) == key:
                h, mi, s, ms = (int(x) for x in m.groups()[:4])
                t = h * 3600 + mi * 60 + s + ms / 1000
                rows.append({"epoch": int(m.group(6)), "val": float(m.group(8)), "train": float(m.group(7)),
                             "s": (t - last) % 86400 if last is not None else float("nan")})
                last = t
                print(f"expresso  {model} epoch {rows[-1]['epoch']}: validation l1 {rows[-1]['val']:.4f},"
                      f" {rows[-1]['s']:.2f} s since the previous epoch", flush=True)
    return rows


def jvm_cpu(pid):
    """CPU seconds of the `expresso up` JVM so far: its training threads (the device slot's dispatcher threads and
    the OpenMP threads they start, all named expresso-worker*) and all its other threads (broker, aggregator, JIT, GC)."""
    tck, train, other = os.sysconf("SC_CLK_TCK"), 0, 0
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{t}/stat").read()
        except OSError:
            continue   # a thread that ended meanwhile
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / tck
        if stat[stat.index("(") + 1:stat.rindex(")")].startswith("expresso-worke"):
            train += cpu
        else:
            other += cpu
    return train, other


def median_after_first(rows, key="s"):
    v = [r[key] for r in rows if r["epoch"] > 1 and not math.isnan(r[key])]
    return statistics.median(v) if v else float("nan")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rob", required=True, help="francesco-campi/Rob-Subgraphs: a work tree or a git directory")
    p.add_argument("--graphs", type=int, default=200, help="graphs in the dataset (30/20/50 split)")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--models", default="i2gnn,ppgn")
    p.add_argument("--pattern", default="triangle")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rounds", type=int, default=1, help="rounds, each side once per model per round, order alternating")
    p.add_argument("--expresso", default="scripts/expresso")
    p.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "robust-side-by-side"))
    p.add_argument("--kafka-port", type=int, default=19293)
    p.add_argument("--timeout", type=int, default=1800, help="seconds to wait for one Expresso training")
    p.add_argument("--reference-omp", choices=("expresso", "default"), default="expresso",
                   help="the reference's OpenMP wait policy: Expresso's (the same on both sides) or PyTorch's default")
    p.add_argument("--out", help="write the Markdown record here")
    args = p.parse_args()
    if args.reference_omp == "expresso":
        # before torch loads libgomp; expresso up inherits the same values (what its engine sets where unset)
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        os.environ.setdefault("GOMP_SPINCOUNT", "30000")
    args.bootstrap = f"127.0.0.1:{args.kafka_port}"
    os.makedirs(args.work, exist_ok=True)
    import torch
    ref = import_reference(reference_sources(args.rob, args.work))
    prefix = os.path.join(args.work, "sbm")
    print(sh([args.expresso, "count", "generate", "--model", "sbm", "--graphs", str(args.graphs), "--seed",
              str(DATA_SEED), "--study-split", "--out", prefix]), end="", flush=True)
    parts = {part: read_part(prefix, part, args.pattern) for part in ("train", "validation")}
    models = args.models.split(",")
    data = {m: {part: reference_data(ref, m, *parts[part], HOPS[args.pattern]) for part in parts} for m in models}

    uplog = os.path.join(args.work, "up.log")
    up = subprocess.Popen([args.expresso, "up", "--dir", os.path.join(args.work, "broker"), "--kafka-port",
                           str(args.kafka_port), "--metrics-port", str(args.kafka_port + 1), "--devices", "cpu:1"],
                          stdout=subprocess.PIPE, stderr=open(uplog, "w"), text=True)
    results = {m: {"reference": [], "expresso": []} for m in models}
    background = {m: {"reference": [], "expresso": []} for m in models}
    load = [os.getloadavg()[0]]
    try:
        if not up.stdout.readline().startswith("ready"):
            sys.exit(f"expresso up did not start: see {uplog}")
        stamp = int(time.time())
        for r in range(args.rounds):
            for m in models:
                order = ("reference", "expresso") if r % 2 == 0 else ("expresso", "reference")
                for side in order:
                    before, t0 = jvm_cpu(up.pid), time.perf_counter()
                    if side == "reference":
                        results[m][side].append(run_reference(ref, m, data[m], args.epochs, args.seed + r,
                                                              PAPER["batch"]))
                    else:
                        results[m][side].append(run_expresso(args, uplog, f"sbs-{stamp}-r{r}-{m}", m, args.pattern,
                                                             args.seed + r))
                    after, t1 = jvm_cpu(up.pid), time.perf_counter()
                    # what the up JVM's threads other than training took while this side ran: on the reference's
                    # cores too (one machine), so both sides pay it
                    background[m][side].append((after[1] - before[1]) / (t1 - t0))
                    load.append(os.getloadavg()[0])
            record(args, parts, models, results, load, r + 1, background)
    finally:
        up.terminate()
        up.wait(60)

    print(record(args, parts, models, results, load, args.rounds, background), end="")


def record(args, parts, models, results, load, rounds, background):
    """The Markdown record of the first `rounds` rounds (written after every round, so a cut-off run keeps its rounds)."""
    import torch
    commit = sh(["git", "rev-parse", "--short", "HEAD"]).strip()
    md = [f"# Count models: the authors' training loop beside Expresso's ({args.pattern}, {args.graphs} SBM graphs)", "",
          f"{datetime.now().strftime('%Y-%m-%d %H:%M')}, commit `{commit}`, torch {torch.__version__} with"
          f" {torch.get_num_threads()} threads (reference), `expresso up --devices cpu:1`; OpenMP wait policy"
          f" {os.environ.get('OMP_WAIT_POLICY', 'default')} (spin count {os.environ.get('GOMP_SPINCOUNT', 'default')})"
          f" for the reference; {os.cpu_count()} cores,"
          f" 1-minute load average {min(load):.1f}-{max(load):.1f} during the run (a shared machine: absolute seconds"
          " are not product figures, only the paired ratios are).", "",
          "```", "/work/venv-brec/bin/python " + " ".join(sys.argv), "```", "",
          f"The same graphs on both sides (`count generate --study-split`: {len(parts['train'][0])} train,"
          f" {len(parts['validation'][0])} validation), round r trains seed {args.seed} + r on both sides (different"
          f" RNGs: PyTorch's and DJL's initialisation differ), Adam {PAPER['lr']}, batch {PAPER['batch']}, L1 on raw counts,"
          " plateau 0.5/20. Seconds per epoch: train steps + validation pass, median over epochs 2.."
          f"{args.epochs}; the reference's epoch as written also evaluates the train set (in brackets).", ""]
    md += ["| model | round | order | reference s/epoch (theirs as written) | Expresso s/epoch | Expresso / reference |"
           " up JVM's other threads, cores (during reference / Expresso) |",
           "|---|---|---|---|---|---|---|"]
    for m in models:
        for r in range(rounds):
            a, b = results[m]["reference"][r], results[m]["expresso"][r]
            ra, rb = median_after_first(a), median_after_first(b)
            md.append(f"| {m} | {r} | {'reference first' if r % 2 == 0 else 'Expresso first'} | {ra:.2f}"
                      f" ({median_after_first(a, 's_theirs'):.2f}) | {rb:.2f} | {rb / ra:.2f} |"
                      f" {background[m]['reference'][r]:.2f} / {background[m]['expresso'][r]:.2f} |")
    for m in models:
        ratios = sorted(median_after_first(results[m]["expresso"][r]) / median_after_first(results[m]["reference"][r])
                        for r in range(rounds))
        md.append(f"| {m} | all | median of the rounds' ratios (range {ratios[0]:.2f}-{ratios[-1]:.2f}) | | |"
                  f" **{statistics.median(ratios):.2f}** | |")
    md += ["", "Validation l1 (raw counts) per epoch, one column per round (seed); reference: mean over batches, as"
           " their evaluate_epoch; Expresso: mean over graphs:", ""]
    seeds = " | ".join(f"seed {args.seed + r}" for r in range(rounds))
    md += [f"| model | side | epoch | {seeds} | mean |", "|---|---|---|" + "---|" * (rounds + 1)]
    for m in models:
        for side in ("reference", "expresso"):
            for e in range(args.epochs):
                v = [runs[e]["val"] for runs in results[m][side] if e < len(runs)]
                cells = " | ".join(f"{x:.3f}" for x in v) + " | -" * (rounds - len(v))
                mean = f"{statistics.mean(v):.3f}" if v else "-"
                md.append(f"| {m} | {side} | {e + 1} | {cells} | {mean} |")
    text = "\n".join(md) + "\n"
    if args.out:
        open(args.out, "w").write(text)
    return text


if __name__ == "__main__":
    main()

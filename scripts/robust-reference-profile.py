#!/usr/bin/env python3
"""Where an epoch of the authors' count-model training goes: their I2GNN or PPGN, their batches, Adam, L1 on raw
counts (as robust-side-by-side.py runs them), each step's parts timed: collation, forward, loss, backward, step, and
the validation pass (their evaluate_epoch). The counterpart of Expresso's CountEpochProfile (src/test/java).

usage (the graphs from `expresso count generate --model sbm --graphs 200 --seed 20240601 --study-split --out P`):
  OMP_WAIT_POLICY=PASSIVE GOMP_SPINCOUNT=30000 /work/venv-brec/bin/python scripts/robust-reference-profile.py \\
      --rob /work/.mirror/francesco-campi+Rob-Subgraphs/repo --graphs P --model ppgn --epochs 3
"""
import argparse, importlib.util, os, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sbs", os.path.join(here, "robust-side-by-side.py"))
sbs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sbs)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rob", required=True)
    p.add_argument("--graphs", required=True, help="prefix of the study split's .train/.validation g6 and csv files")
    p.add_argument("--model", default="i2gnn", choices=("i2gnn", "ppgn"))
    p.add_argument("--pattern", default="triangle")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--trace", help="write torch.profiler's Chrome trace of the last epoch here")
    p.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "robust-reference-profile"))
    a = p.parse_args()
    import torch
    from torch.utils.data import DataLoader as TorchLoader
    from torch_geometric.loader import DataLoader
    ref = sbs.import_reference(sbs.reference_sources(a.rob, a.work))
    parts = {part: sbs.read_part(a.graphs, part, a.pattern) for part in ("train", "validation")}
    data = {part: sbs.reference_data(ref, a.model, *parts[part], sbs.HOPS[a.pattern]) for part in parts}
    torch.manual_seed(0)
    if a.model == "ppgn":
        train = DataLoader(dataset=data["train"], batch_size=16, shuffle=True)
        val = DataLoader(dataset=data["validation"], batch_size=16)
        gnn = ref.PPGN(1, 128, 64, 4, 2)
    else:
        collate = lambda b: ref.Batch.from_data_list(b, [])
        train = TorchLoader(data["train"], 16, shuffle=True, collate_fn=collate)
        val = TorchLoader(data["validation"], 16, collate_fn=collate)
        gnn = ref.I2GNN(num_layers=5)
    opt = torch.optim.Adam(gnn.parameters(), lr=1e-3)
    loss_fn = torch.nn.L1Loss()
    print(f"{a.model}: {torch.get_num_threads()} threads, OMP_WAIT_POLICY {os.environ.get('OMP_WAIT_POLICY', 'default')}")
    for e in range(a.epochs):
        prof = None
        if a.trace and e == a.epochs - 1:
            prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], record_shapes=True)
            prof.__enter__()
        t = dict(collate=0.0, forward=0.0, loss=0.0, backward=0.0, step=0.0)
        e0 = time.perf_counter()
        c0 = time.process_time()
        gnn.train()
        batches = iter(train)
        while True:
            t0 = time.perf_counter()
            try:
                d = next(batches)
            except StopIteration:
                break
            t1 = time.perf_counter()
            opt.zero_grad()
            out = gnn(d)
            t2 = time.perf_counter()
            loss = loss_fn(out, d.y)
            loss.item()
            t3 = time.perf_counter()
            loss.backward()
            t4 = time.perf_counter()
            opt.step()
            t5 = time.perf_counter()
            for k, x in zip(t, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
                t[k] += x
        v0 = time.perf_counter()
        val_l1 = ref.evaluate_epoch(val, gnn, loss_fn, "cpu").item()
        v = time.perf_counter() - v0
        print(f"epoch {e + 1}: {time.perf_counter() - e0:.3f} s (process CPU {time.process_time() - c0:.3f} s,"
              f" validation l1 {val_l1:.3f}) "
              + " ".join(f"{k} {x:.3f}" for k, x in t.items()) + f" validate {v:.3f}", flush=True)
        if prof is not None:
            prof.__exit__(None, None, None)
            prof.export_chrome_trace(a.trace)


if __name__ == "__main__":
    main()

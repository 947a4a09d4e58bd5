#!/usr/bin/env python3
"""Publish a BREC experiment with your TorchScript model to Expresso's Kafka, without Java, and print
the results table once the workers are done (docs/gnn-evaluation.md, "Your own model").

    python3 publish_brec.py --bootstrap 127.0.0.1:9092 --experiment my-gin \\
        --suite brec_v3.g6 --model gin.pt [--options input=sparse,features=degree] \\
        [--indices 0,60,110,160] [--pairs 0-59] [--seeds 0-2] [--epochs 20] [--wait 600]

What it does, as `expresso publish brec --model torchscript:gin.pt` does:
  1. stores the module once in the compacted topic expresso.models under the key sha256:<hex> of
     its bytes (a Checkpoint message, format "torchscript");
  2. sends one PairTask per pair and seed to expresso.tasks.pair, naming the model
     "torchscript:sha256:<hex>[,options]" and shipping the file's relabelings;
  3. reads expresso.results (committed records only) until every task has a result and prints the
     reliably distinguished pairs per category.
Workers run the tasks only if started with --allow-user-models (TorchScript is code).

Needs Debian's python3-confluent-kafka, python3-protobuf and protobuf-compiler: the message classes
are generated from the repository's protos/ with protoc at start. The suite is a BREC file as
graph6 lines (.g6; numpy reads .npy, if installed): with P pairs and q relabelings, entries
[p*2q, (p+1)*2q) relabel pair p's G (even) and H (odd), entries [(P+p)*2q, (P+p+1)*2q) are its
reliability block.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOS = os.path.join(HERE, "..", "..", "protos")

# BREC's official pair numbers per category (the full brec_v3 file)
CATEGORIES = [(0, 60, "Basic"), (60, 160, "Regular"), (160, 260, "Extension"), (260, 360, "CFI"),
              (360, 380, "4-Vertex Condition"), (380, 400, "Distance Regular")]


def fail(message):
    print("publish_brec.py: error: " + message, file=sys.stderr)
    sys.exit(1)


def generated_protos():
    """Compiles protos/expresso/v1/*.proto to Python in a temporary folder and imports it."""
    out = tempfile.mkdtemp(prefix="expresso-protos-")
    sources = [os.path.join("expresso", "v1", f) for f in sorted(os.listdir(os.path.join(PROTOS, "expresso", "v1")))
               if f.endswith(".proto")]
    try:
        subprocess.run(["protoc", "-I", PROTOS, "--python_out=" + out] + sources, check=True)
    except FileNotFoundError:
        fail("protoc is not installed: apt-get install -y protobuf-compiler")
    sys.path.insert(0, out)
    from expresso.v1 import results_pb2, tasks_pb2  # noqa: E402 (generated above)
    return tasks_pb2, results_pb2


def read_suite(path):
    if path.endswith(".npy"):
        import numpy
        return [bytes(x).decode() for x in numpy.load(path, allow_pickle=True)]
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def category(index):
    for lo, hi, name in CATEGORIES:
        if lo <= index < hi:
            return name
    return "pair %d" % index


def span(text):
    a, _, b = text.partition("-")
    return int(a), int(b or a)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--experiment", required=True)
    ap.add_argument("--suite", required=True, help="BREC file: graph6 lines (.g6) or numpy's .npy")
    ap.add_argument("--model", required=True, help="your TorchScript module (torch.jit.save's output)")
    ap.add_argument("--options", default="", help="spec keys after the module, e.g. input=dense or features=degree")
    ap.add_argument("--indices", help="BREC's pair numbers of the file's pairs, comma-separated (default 0..P-1)")
    ap.add_argument("--pairs", help="only pairs whose number lies in A-B")
    ap.add_argument("--seeds", default="0")
    ap.add_argument("--epochs", type=int, default=0, help="0: the default (20)")
    ap.add_argument("--q", type=int, default=32)
    ap.add_argument("--wait", type=float, default=600, help="seconds to wait for the results")
    args = ap.parse_args()

    try:
        from confluent_kafka import Consumer, Producer, TopicPartition
    except ImportError:
        fail("confluent_kafka is not installed: apt-get install -y python3-confluent-kafka")
    try:
        tasks_pb2, results_pb2 = generated_protos()
    except ImportError as e:
        fail("cannot import the generated message classes (%s): apt-get install -y python3-protobuf" % e)

    if not os.path.isfile(args.model):
        fail("%s: no such file" % args.model)
    module = open(args.model, "rb").read()
    digest = hashlib.sha256(module).hexdigest()
    method = "torchscript:sha256:" + digest + ("," + args.options if args.options else "")

    graphs = read_suite(args.suite)
    q = args.q
    if len(graphs) % (4 * q) != 0:
        fail("%s: %d graphs is not a whole number of pairs of 4 x %d relabelings" % (args.suite, len(graphs), q))
    count = len(graphs) // (4 * q)
    numbers = [int(x) for x in args.indices.split(",")] if args.indices else list(range(count))
    if len(numbers) != count:
        fail("--indices names %d pairs, %s holds %d" % (len(numbers), args.suite, count))
    lo, hi = span(args.pairs) if args.pairs else (min(numbers), max(numbers))
    seed_lo, seed_hi = span(args.seeds)

    producer = Producer({"bootstrap.servers": args.bootstrap, "message.max.bytes": 32 << 20, "acks": "all"})
    stored = results_pb2.Checkpoint(key="sha256:" + digest, model=method, parameters=module, format="torchscript",
                                    created_by="publish_brec.py", created_at_ms=int(time.time() * 1000))
    producer.produce("expresso.models", key="sha256:" + digest, value=stored.SerializeToString())
    if producer.flush(60) != 0:
        fail("could not store the module in expresso.models at " + args.bootstrap)
    print("stored TorchScript module sha256:%s (%d bytes) in expresso.models" % (digest, len(module)))

    now = int(time.time() * 1000)
    task_ids = {}  # task id -> category
    for p, number in enumerate(numbers):
        if not lo <= number <= hi:
            continue
        major = graphs[p * 2 * q:(p + 1) * 2 * q]
        reliability = graphs[(count + p) * 2 * q:(count + p + 1) * 2 * q]
        relabelings = tasks_pb2.Relabelings(first=major[0::2], second=major[1::2],
                                            reliability_first=reliability[0::2], reliability_second=reliability[1::2])
        for seed in range(seed_lo, seed_hi + 1):
            task_id = "%s/%s/%d/s%d" % (args.experiment, method, number, seed)
            task = tasks_pb2.PairTask(
                header=tasks_pb2.TaskHeader(task_id=task_id, experiment_id=args.experiment, published_at_ms=now,
                                            publisher="examples/torchscript/publish_brec.py"),
                suite_id=os.path.basename(args.suite), pair_index=number, category=category(number),
                graph_first=major[0], graph_second=major[1], relabelings=relabelings, method=method,
                training=tasks_pb2.TrainingSettings(epochs=args.epochs), rpc=tasks_pb2.RpcSettings(q=q), seed=seed)
            producer.produce("expresso.tasks.pair", key=task_id, value=task.SerializeToString())
            task_ids[task_id] = category(number)
    if producer.flush(60) != 0:
        fail("could not send the tasks to expresso.tasks.pair at " + args.bootstrap)
    print("published %d pair tasks (%s) to expresso.tasks.pair for experiment %s" % (len(task_ids), method,
                                                                                     args.experiment))

    consumer = Consumer({"bootstrap.servers": args.bootstrap, "group.id": "publish-brec-py-%d" % os.getpid(),
                         "isolation.level": "read_committed", "enable.auto.commit": False,
                         "auto.offset.reset": "earliest"})
    consumer.subscribe(["expresso.results"])
    results = {}
    deadline = time.time() + args.wait
    while len(results) < len(task_ids) and time.time() < deadline:
        record = consumer.poll(0.5)
        if record is None or record.error():
            continue
        r = results_pb2.Result()
        r.ParseFromString(record.value())
        if r.task_id in task_ids and (r.task_id not in results or results[r.task_id].HasField("error")):
            results[r.task_id] = r  # a later result of a task supersedes an earlier error
    consumer.close()

    rows = {}
    errors = []
    for r in results.values():
        row = rows.setdefault(task_ids[r.task_id], [0, 0, 0])
        if r.HasField("error") and r.error.reason:
            errors.append("%s: %s: %s" % (r.task_id, r.error.reason, r.error.message))
            row[2] += 1
            continue
        row[0] += 1
        row[1] += 1 if r.pair.distinguished and r.pair.reliable else 0
    print("%-20s %6s %22s %7s" % ("category", "tasks", "reliably distinguished", "errors"))
    for name in [c[2] for c in CATEGORIES] + sorted(set(rows) - {c[2] for c in CATEGORIES}):
        if name in rows:
            judged, distinguished, failed = rows[name]
            print("%-20s %6d %22d %7d" % (name, judged + failed, distinguished, failed))
    for e in errors:
        print("error: " + e)
    if len(results) < len(task_ids):
        fail("only %d of %d results arrived within %.0f s" % (len(results), len(task_ids), args.wait))
    return 0


if __name__ == "__main__":
    sys.exit(main())

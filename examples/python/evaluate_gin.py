#!/usr/bin/env python3
"""Evaluate a plain-PyTorch GIN on BREC through Expresso, from Python alone (docs/python.md).

    python3 examples/python/evaluate_gin.py --bootstrap 127.0.0.1:9092 --suite brec_v3.npy \\
        [--seeds 0-9] [--epochs 20] [--experiment my-gin] [--csv pairs.csv]

The model is examples/torchscript/make_gin.py's GIN (Expresso's built-in `gin`, written in
PyTorch); the package scripts it, stores it in expresso.models, publishes one task per pair and
seed and follows the results. Workers must run with --allow-user-models. The three lines that do
the work are marked below; the rest is the command line.
"""
import argparse
import os
import sys

import torch

import expresso

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "torchscript"))
from make_gin import Gin  # noqa: E402 (the example model, beside the script that saves it)


def span(text):
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bootstrap", help="Kafka bootstrap servers (or bootstrap.servers in --kafka-config)")
    ap.add_argument("--kafka-config", help="Java client properties of a secured cluster, as the Java commands take")
    ap.add_argument("--suite", default="brec_v3.npy", help="a BREC file: .npy or graph6 lines")
    ap.add_argument("--indices", help="BREC's pair numbers of an excerpt's pairs, e.g. 0,60,110,160")
    ap.add_argument("--seeds", default="0-9")
    ap.add_argument("--epochs", type=int, default=0, help="0: the default (20)")
    ap.add_argument("--experiment", default="my-gin")
    ap.add_argument("--csv", help="also write one row per pair and seed to this file (needs pandas)")
    args = ap.parse_args()
    torch.manual_seed(0)
    indices = [int(i) for i in args.indices.split(",")] if args.indices else None
    try:
        client = expresso.Client(args.bootstrap, kafka_config=args.kafka_config)  # 1
        run = client.evaluate(Gin(), suite=args.suite, indices=indices, seeds=span(args.seeds),  # 2
                              epochs=args.epochs, experiment=args.experiment)
    except expresso.ExpressoError as e:
        print("evaluate_gin.py: error: %s" % e, file=sys.stderr)
        return 1
    print(run)  # 3: the best seed per category beside BREC's paper row, as `expresso results` prints it
    if args.csv:
        run.pairs.to_csv(args.csv, index=False)
        print("wrote %s (%d pair results)" % (args.csv, len(run)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A GIN written with PyTorch Geometric, evaluated on BREC through Expresso (docs/python.md, "PyTorch Geometric").

    python3 examples/python/pyg_gin.py --bootstrap 127.0.0.1:9092 --suite brec_v3.npy [--seeds 0-9] [--epochs 20]
    python3 examples/python/pyg_gin.py --check        # only script it and check the signature, no Kafka

PyG's GINConv and global_add_pool script with torch.jit.script (PyG >= 2.5 generates a scriptable
propagate for each conv); the model takes Expresso's sparse signature (x, edge_index, batch) and
returns one row per graph. Optional[...] arguments such as `size` must not appear in forward.
"""
import argparse
import math
import sys

import torch
from torch import Tensor, nn
from torch_geometric.nn import GINConv, global_add_pool

import expresso


class PygGin(nn.Module):
    def __init__(self, layers: int = 4, hidden: int = 32, d: int = 16):
        super().__init__()
        self.convs = nn.ModuleList([GINConv(nn.Sequential(nn.Linear(1 if i == 0 else hidden, hidden), nn.BatchNorm1d(hidden),
                                                          nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()), train_eps=False)
                                    for i in range(layers)])
        self.readouts = nn.ModuleList([nn.Linear(hidden, d) for _ in range(layers)])

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        out = torch.zeros(1)
        h = x
        for conv, readout in zip(self.convs, self.readouts):
            h = conv(h, edge_index)
            out = out + readout(global_add_pool(h, batch))
        return out

    @torch.jit.export
    def reset_parameters(self):
        # fresh weights per pair and seed (Expresso calls it under the task's seed); PyG's own
        # GINConv.reset_parameters does not script (super() and torch_geometric's reset helper), so
        # the layers inside are reset here, as nn.Linear and nn.BatchNorm1d reset themselves
        with torch.no_grad():
            for conv in self.convs:
                _reset_linear(conv.nn[0].weight, conv.nn[0].bias)
                _reset_norm(conv.nn[1].weight, conv.nn[1].bias, conv.nn[1].running_mean, conv.nn[1].running_var)
                _reset_linear(conv.nn[3].weight, conv.nn[3].bias)
            for readout in self.readouts:
                _reset_linear(readout.weight, readout.bias)


def _reset_linear(weight: Tensor, bias: Tensor):
    bound = 1.0 / math.sqrt(weight.shape[1])  # nn.Linear's default init
    weight.uniform_(-bound, bound)
    bias.uniform_(-bound, bound)


def _reset_norm(weight: Tensor, bias: Tensor, mean: Tensor, var: Tensor):
    weight.fill_(1.0)
    bias.fill_(0.0)
    mean.fill_(0.0)
    var.fill_(1.0)


def span(text):
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bootstrap")
    ap.add_argument("--suite", default="brec_v3.npy")
    ap.add_argument("--indices", help="BREC's pair numbers of an excerpt's pairs, e.g. 0,60,110,160")
    ap.add_argument("--seeds", default="0-9")
    ap.add_argument("--epochs", type=int, default=0)
    ap.add_argument("--check", action="store_true", help="only script the model and check its signature")
    args = ap.parse_args()
    torch.manual_seed(0)
    model = PygGin()
    if args.check:
        module = expresso.model.module_bytes(model)
        print("scripted %s: %d bytes of TorchScript (torch %s)" % (type(model).__name__, len(module), torch.__version__))
        return 0
    client = expresso.Client(args.bootstrap)
    run = client.evaluate(model, suite=args.suite, seeds=span(args.seeds), epochs=args.epochs,
                          indices=[int(i) for i in args.indices.split(",")] if args.indices else None)
    print(run)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A small GIN in plain PyTorch, scripted and saved for Expresso (docs/gnn-evaluation.md, "Your own model").

    python3 make_gin.py OUT_DIR

writes OUT_DIR/gin.pt, the sparse signature Expresso feeds PyTorch Geometric-style models:

    forward(x: float[N,F], edge_index: long[2,E], batch: long[N]) -> float[B,d]

OUT_DIR/plain-gin.pt, the same built from standard layers without reset_parameters, and
OUT_DIR/dense-gin.pt, the dense signature (PPGN-like models):

    forward(adj: float[B,n,n], mask: bool[B,n]) -> float[B,d]

The sparse model is the architecture of Expresso's built-in `gin` (model/GinBlock): GIN-0 layers
h <- MLP(h + sum of neighbours), MLP = Linear, BatchNorm, ReLU, Linear, BatchNorm, ReLU; the graph
embedding is the sum over layers of a linear map of the layer's sum-pooled node states. Defaults
as `gin`: 4 layers, width 32, d = 16. `reset_parameters` is exported so that Expresso can draw
fresh weights per pair from its seed; without it Expresso restarts every pair from the saved
weights. Only torch is needed (no PyTorch Geometric): aggregation is index_add_.

With --bad it also writes the broken modules Expresso's tests refuse (wrong signature, wrong
output shape, NaN output, integer output).
"""
import math
import os
import sys

import torch
from torch import Tensor, nn


class Mlp(nn.Module):
    def __init__(self, fan_in: int, hidden: int):
        super().__init__()
        self.lin1 = nn.Linear(fan_in, hidden)
        self.bn1 = nn.BatchNorm1d(hidden)
        self.lin2 = nn.Linear(hidden, hidden)
        self.bn2 = nn.BatchNorm1d(hidden)

    def forward(self, h: Tensor) -> Tensor:
        h = torch.relu(self.bn1(self.lin1(h)))
        return torch.relu(self.bn2(self.lin2(h)))


def _reset_linear(weight: Tensor, bias: Tensor):
    # PyTorch's own init for Linear (Kaiming-uniform weights, uniform bias), written out so that
    # it scripts on every PyTorch version
    bound = 1.0 / math.sqrt(weight.shape[1])
    weight.uniform_(-bound, bound)
    bias.uniform_(-bound, bound)


def _reset_bn(weight: Tensor, bias: Tensor, mean: Tensor, var: Tensor):
    weight.fill_(1.0)
    bias.fill_(0.0)
    mean.fill_(0.0)
    var.fill_(1.0)


class Gin(nn.Module):
    """Sparse signature: node features, both directions of every edge, graph of every node."""

    def __init__(self, features: int = 1, layers: int = 4, hidden: int = 32, d: int = 16):
        super().__init__()
        self.mlps = nn.ModuleList([Mlp(features if l == 0 else hidden, hidden) for l in range(layers)])
        self.readouts = nn.ModuleList([nn.Linear(hidden, d) for _ in range(layers)])
        self.d = d

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        graphs = int(batch.max().item()) + 1
        h = x
        out = torch.zeros(graphs, self.d, dtype=x.dtype, device=x.device)
        for mlp, readout in zip(self.mlps, self.readouts):
            agg = h.index_add(0, edge_index[1], h[edge_index[0]])
            h = mlp(agg)
            pooled = torch.zeros(graphs, h.shape[1], dtype=h.dtype, device=h.device).index_add(0, batch, h)
            out = out + readout(pooled)
        return out

    @torch.jit.export
    def reset_parameters(self):
        with torch.no_grad():
            for mlp in self.mlps:
                _reset_linear(mlp.lin1.weight, mlp.lin1.bias)
                _reset_bn(mlp.bn1.weight, mlp.bn1.bias, mlp.bn1.running_mean, mlp.bn1.running_var)
                _reset_linear(mlp.lin2.weight, mlp.lin2.bias)
                _reset_bn(mlp.bn2.weight, mlp.bn2.bias, mlp.bn2.running_mean, mlp.bn2.running_var)
            for readout in self.readouts:
                _reset_linear(readout.weight, readout.bias)


class DenseGin(nn.Module):
    """Dense signature: padded adjacency and the mask of real vertices; BatchNorm over real vertices only."""

    def __init__(self, layers: int = 4, hidden: int = 32, d: int = 16):
        super().__init__()
        self.mlps = nn.ModuleList([Mlp(1 if l == 0 else hidden, hidden) for l in range(layers)])
        self.readouts = nn.ModuleList([nn.Linear(hidden, d) for _ in range(layers)])
        self.d = d

    def forward(self, adj: Tensor, mask: Tensor) -> Tensor:
        b, n = mask.shape
        h = mask.unsqueeze(-1).to(adj.dtype)
        out = torch.zeros(b, self.d, dtype=adj.dtype, device=adj.device)
        for mlp, readout in zip(self.mlps, self.readouts):
            agg = h + torch.bmm(adj, h)
            updated = mlp(agg[mask])
            z = torch.zeros(b, n, updated.shape[1], dtype=adj.dtype, device=adj.device)
            z[mask] = updated
            h = z
            out = out + readout(h.sum(1))
        return out

    @torch.jit.export
    def reset_parameters(self):
        with torch.no_grad():
            for mlp in self.mlps:
                _reset_linear(mlp.lin1.weight, mlp.lin1.bias)
                _reset_bn(mlp.bn1.weight, mlp.bn1.bias, mlp.bn1.running_mean, mlp.bn1.running_var)
                _reset_linear(mlp.lin2.weight, mlp.lin2.bias)
                _reset_bn(mlp.bn2.weight, mlp.bn2.bias, mlp.bn2.running_mean, mlp.bn2.running_var)
            for readout in self.readouts:
                _reset_linear(readout.weight, readout.bias)


class PlainGin(nn.Module):
    """The sparse GIN from standard layers only, with GIN's learnable eps and no reset_parameters:
    Expresso draws the standard layers' weights per seed itself (docs/gnn-evaluation.md, init=)."""

    def __init__(self, features: int = 1, layers: int = 4, hidden: int = 32, d: int = 16):
        super().__init__()
        self.mlps = nn.ModuleList([nn.Sequential(nn.Linear(features if l == 0 else hidden, hidden),
                                                 nn.BatchNorm1d(hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                                                 nn.BatchNorm1d(hidden), nn.ReLU()) for l in range(layers)])
        self.eps = nn.Parameter(torch.zeros(layers))
        self.readout = nn.Linear(hidden * layers, d)

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        graphs = int(batch.max().item()) + 1
        h = x
        pooled = []
        for l, mlp in enumerate(self.mlps):
            h = mlp((1 + self.eps[l]) * h + torch.zeros_like(h).index_add(0, edge_index[1], h[edge_index[0]]))
            pooled.append(torch.zeros(graphs, h.shape[1], dtype=h.dtype, device=h.device).index_add(0, batch, h))
        return self.readout(torch.cat(pooled, 1))


class WrongSignature(nn.Module):
    """Takes one tensor: fits neither signature."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 16)

    def forward(self, x: Tensor) -> Tensor:
        return self.lin(x)


class NodeOutput(Gin):
    """Returns one row per node instead of one per graph."""

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        return self.readouts[0](self.mlps[0](x))


class NanOutput(nn.Module):
    """Right shape, every value NaN."""

    def __init__(self):
        super().__init__()
        self.gin = Gin()

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        return self.gin(x, edge_index, batch) * float("nan")


class IntegerOutput(nn.Module):
    """Right shape, integer dtype."""

    def __init__(self):
        super().__init__()
        self.gin = Gin()

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        return self.gin(x, edge_index, batch).to(torch.int64)


def save(module: nn.Module, path: str):
    torch.jit.script(module).save(path)
    print(f"wrote {path} ({os.path.getsize(path)} bytes, torch {torch.__version__})")


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    out = args[0] if args else "."
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    save(Gin(), os.path.join(out, "gin.pt"))
    save(DenseGin(), os.path.join(out, "dense-gin.pt"))
    save(PlainGin(), os.path.join(out, "plain-gin.pt"))
    if "--bad" in argv:
        save(WrongSignature(), os.path.join(out, "wrong-signature.pt"))
        save(NodeOutput(), os.path.join(out, "node-output.pt"))
        save(NanOutput(), os.path.join(out, "nan-output.pt"))
        save(IntegerOutput(), os.path.join(out, "integer-output.pt"))


if __name__ == "__main__":
    main(sys.argv)

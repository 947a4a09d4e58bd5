#!/usr/bin/env python3
"""Parameter counts of Campi et al.'s count models, built by their own constructors, for CountModelsTest.

Usage: extract their sources (never copied into this project) and run with a Python that has torch and
torch_geometric (torch_scatter and scipy are imported by their modules but unused here: stand-ins):
  git --git-dir=<fetched francesco-campi/Rob-Subgraphs>/repo archive HEAD src | tar -x -C /tmp/rob-ref
  python3 scripts/robust-reference-counts.py /tmp/rob-ref
Printed 2026-11-27 (torch 2.13, torch_geometric 2.8): i2gnn 64x5 237825, without transform[0] 229569;
ppgn 1/128/64/4/2 343105, 1/32/32/3/2 22241, 32/64/32/3/2 63521, 64/128/64/5/2 482625, 1/8/4/2/2 549;
gin (in, hidden, layers, out) 1/128/4/64 elu concat (their tests/model.json) 243525, with batch_norm 246469,
32/64/3/32 42596, 64/128/5/64 concat 333766, 1/8/2/4 concat batch_norm 527; gin outputs on fixed weights
(CountModelsTest.ginAgreesWithTheAuthorsModuleOnFixedWeights) 1.3460984 1.2227240, 0.2698216 0.2698189,
0.2204083 0.1803557.
"""
import sys, types
import torch
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else '/tmp/rob-ref')
# torch_scatter and scipy are imported but unused by the two models' forward: stand-ins
ts = types.ModuleType('torch_scatter')
from torch_geometric.utils import scatter
ts.scatter_mean = lambda s, i, dim=0, **k: scatter(s, i, dim, reduce='mean')
ts.scatter_add = lambda s, i, dim=0, **k: scatter(s, i, dim, reduce='sum')
ts.scatter_min = lambda s, i, dim=0, **k: scatter(s, i, dim, reduce='min')
sys.modules['torch_scatter'] = ts
from src.ppgn.ppgn import PPGN
from src.I2GNN.I2GNN import I2GNN
from src.baseline.model_gcn import GIN
n = lambda m: sum(p.numel() for p in m.parameters() if p.requires_grad)
m = I2GNN(num_layers=5); print('i2gnn 64x5', n(m), 'without transform[0]', n(m) - n(m.transform_before_conv[0]))
for cfg in [(1,128,64,4,2),(1,32,32,3,2),(32,64,32,3,2),(64,128,64,5,2),(128,256,128,2,2),(1,8,4,2,2)]:
    i,h,o,l,d = cfg
    print('ppgn in=%d hidden=%d d=%d layers=%d depth=%d' % cfg, n(PPGN(i,h,o,l,d)))
# GIN(in_channels, hidden_channels, num_layers, out_channels, act, pooling, dropout, concat, aggr, batch_norm)
for i, h, l, o, kw in [(1, 128, 4, 64, dict(act='elu', concat=True)),
                       (1, 128, 4, 64, dict(act='elu', concat=True, batch_norm=True)),
                       (32, 64, 3, 32, {}), (64, 128, 5, 64, dict(concat=True)),
                       (1, 8, 2, 4, dict(concat=True, batch_norm=True))]:
    print('gin in=%d hidden=%d layers=%d out=%d' % (i, h, l, o), kw, n(GIN(i, h, l, o, **kw)))

# GIN's forward on fixed weights (the t-th Linear: W[o, i] = 0.5 sin(1.3t + 0.7o + 0.31i + 0.1), b[o] =
# 0.2 cos(0.9t + 0.5o); the b-th BatchNorm: gamma 1 + 0.1 sin(c + b), beta 0.05 cos(c + b); eps_l =
# 0.1 (l + 1)(-1)^l; eval mode) on a tailed triangle with an isolated vertex and a 4-cycle, batched
import math
from torch_geometric.data import Data, Batch
def fill(m):
    t = b = 0
    for l, conv in enumerate(m.convs):
        conv.eps.data.fill_(0.1 * (l + 1) * (-1) ** l)
    for x in [x for conv in m.convs for x in conv.nn] + list(m.final_mlp):
        if isinstance(x, torch.nn.Linear):
            for o in range(x.weight.shape[0]):
                x.bias.data[o] = 0.2 * math.cos(0.9 * t + 0.5 * o)
                for i in range(x.weight.shape[1]):
                    x.weight.data[o, i] = 0.5 * math.sin(1.3 * t + 0.7 * o + 0.31 * i + 0.1)
            t += 1
        elif isinstance(x, torch.nn.BatchNorm1d):
            for c in range(x.num_features):
                x.weight.data[c] = 1 + 0.1 * math.sin(c + b)
                x.bias.data[c] = 0.05 * math.cos(c + b)
            b += 1
def graph(n, edges, c):
    return Data(x=torch.ones(n, c), edge_index=torch.tensor(edges + [(v, u) for u, v in edges]).t())
for args, kw in [((2, 3, 3, 2), dict(act='elu', pooling='add', aggr='add', concat=True)),
                 ((1, 4, 2, 3), dict(act='softmax', pooling='mean', aggr='mean', concat=False, batch_norm=True)),
                 ((1, 3, 2, 3), dict(act='tanh', pooling='max', aggr='add', concat=True))]:
    m = GIN(*args, **kw); fill(m); m.eval()
    batch = Batch.from_data_list([graph(5, [(0, 1), (1, 2), (2, 0), (2, 3)], args[0]),
                                  graph(4, [(0, 1), (1, 2), (2, 3), (3, 0)], args[0])])
    with torch.no_grad():
        print('gin', args, kw, ' '.join('%.7f' % v for v in m(batch).flatten().tolist()))

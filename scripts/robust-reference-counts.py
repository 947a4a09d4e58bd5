#!/usr/bin/env python3
"""Parameter counts of Campi et al.'s count models, built by their own constructors, for CountModelsTest.

Usage: extract their sources (never copied into this project) and run with a Python that has torch and
torch_geometric (torch_scatter and scipy are imported by their modules but unused here: stand-ins):
  git --git-dir=<fetched francesco-campi/Rob-Subgraphs>/repo archive HEAD src | tar -x -C /tmp/rob-ref
  python3 scripts/robust-reference-counts.py /tmp/rob-ref
Printed 2026-11-27 (torch 2.13, torch_geometric 2.8): i2gnn 64x5 237825, without transform[0] 229569;
ppgn 1/128/64/4/2 343105, 1/32/32/3/2 22241, 32/64/32/3/2 63521, 64/128/64/5/2 482625, 1/8/4/2/2 549;
gin (in, hidden, layers, out) 1/128/4/64 elu concat (their tests/model.json) 243525, with batch_norm 246469,
32/64/3/32 42596, 64/128/5/64 concat 333766, 1/8/2/4 concat batch_norm 527.
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

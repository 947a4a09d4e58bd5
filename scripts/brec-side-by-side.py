#!/usr/bin/env python3
"""An Expresso model beside BREC's own script for it, on the same pairs of the same brec_v3.npy, on
one machine: both verdicts and the seconds per pair, per category.

The reference is the test_BREC*.py of a GraphPKU/BREC model directory (--model picks one row of
REFERENCES below: its script, the flags of its test_BREC_search*.py, and the Expresso model that
stands for it), taken from a clone you name (never part of this project) and run by the Python you
name (torch, torch_geometric, numpy, networkx, tqdm, loguru, easydict, six). It runs unchanged but for
what the pairs need: the script is executed in a namespace of our own and, before its main() runs,
part_dict and SAMPLE_NUM are set to the pairs asked for, which it reads from a brec_v3.npy of those
pairs alone (the same graph6 strings in the same order, each pair's 64 graphs, then its 64
reliability graphs: the layout every BREC script indexes), so that its dataset conversion takes
seconds rather than the hour or more the 51,200 graphs take for the subgraph models. A row may name a
patch (SUN's DS/DSS in_dim, below). Packages the scripts import but no BREC run calls (ogb, sklearn,
matplotlib) stand in as modules that raise when used; torch_scatter and torch_sparse, compiled
packages no offline registry here holds, are replaced where missing by a few lines on PyTorch's own
scatter and PyG's coalesce (sums and means in PyTorch's order; a SparseTensor only as a 0/1 adjacency times a dense
matrix), and yacs, which none holds, by a CfgNode of a few lines (attribute access, YAML and list merges): the notes say
which were used. Its seconds per pair are read from its log ('ID:' line to the pair's 'reliability:'
line, its dataset conversion not included); Expresso's from the 'seconds' of each JSONL line (model
creation, the pair's own preprocessing, training, embedding pass, judgement). The two run one after
the other, never at once. By default each of Expresso's pairs has the machine to itself, as the
reference's pairs have it (--pairs-at-once 1); `expresso eval` itself judges one pair per two cores at
once, and --pairs-at-once 0 runs it so (any other N is passed on). Either way the notes give both
sides' time judging all the pairs (Expresso's eval 'elapsed', the reference's pairs' seconds summed).

usage:
  scripts/brec-side-by-side.py --brec PATH_TO_BREC_CLONE --raw ../shared/data/brec-raw \
      [--model ppgn|kp-gnn|i2gnn|gsn|ds-gnn|dss-gnn|sun|ngnn-de|ngnn|gnn-ak|dropgnn|sswl-p|delta-k-lgnn or a BREC directory] [--python PY] \
      [--device cpu|gpu:N] [--pairs 0-159,260-299] [--work DIR] [--out FILE.md] \
      [--expresso 'scripts/expresso'] [--expresso-args '...'] [--ref-args '...'] [--pairs-at-once 1] [--seed 0] [--ref-seed 100]
      [--rounds 3] [--ref-seeds 100,200,300] [--threads N]

--brec is a clone (a work tree) or a bare git directory of GraphPKU/BREC. --raw builds brec_v3.npy
with `expresso suite build-brec`; --brec-file uses a file you have. --pythonpath adds folders to the
reference's PYTHONPATH (e.g. one holding loguru and easydict). On a GPU (--device gpu:N) the reference
sees only that GPU (CUDA_VISIBLE_DEVICES=N); on the CPU it sees none. Results: a Markdown table on
stdout and in --out, every pair in --out's .json beside it. With --rounds N the two run in turn N
times and the table gives every round's ratio and the medians over rounds: on a shared or virtual
machine whose speed drifts from minute to minute, one round's medians alone can differ by a third.
--ref-seeds runs the reference once more per seed after the rounds (no Expresso run) and reports its
own spread: reliably distinguished pairs per category for each seed, and the pairs whose verdict
changes with the seed.
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

# BREC's parts (every test_BREC*.py's part_dict over brec_v3.npy; its 'ID: k' log lines count from a
# part's start)
BREC_PARTS = [
    ("Basic", 0, 60),
    ("Regular", 60, 160),
    ("Extension", 160, 260),
    ("CFI", 260, 360),
    ("4-Vertex_Condition", 360, 380),
    ("Distance_Regular", 380, 400),
]
GSN_VALUES_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                               "src", "main", "resources", "io", "expresso", "model", "gsn-brec-count-values.txt")
PAIR_GRAPHS = 64  # NUM_RELABEL * 2: a pair's graphs in brec_v3.npy; its reliability graphs sit 400 pairs on


class Reference:
    """One BREC model directory: its script, how BREC ran it, and the Expresso model that stands for it.

    directory, script, cwd: the folder in BREC, the test script and the folder it runs in (both relative to it)
    flags: the arguments of its test_BREC_search*.py, the seed left out (seed_flag takes it)
    raw: the file name its BRECDataset reads from Data/raw (Data/ beside the script's folder root)
    expresso: the `expresso eval --model` spec whose defaults are this script's settings
    patch: Python run in the script's namespace after it is loaded and before main() (None: nothing)
    ids_from_file_start: its log's 'ID: k' counts from the file's first pair (I2GNN, NestedGNN, SparseWL),
        not from the part's (the others)
    prelude: Python run in the script's folder before the script is loaded (None: nothing)
    data: where in the model directory the script's dataset folder is (WORK/ref-data is linked there), and
        raw_dir: the folder in it that holds the raw file (a .g6 raw file is written one graph6 string a line)
    cpu_flags: flags added on the CPU (a script that asks for a GPU unless told otherwise)
    pairs_below: the script's own file holds BREC's pairs below this index only (None: all 400)
    """

    def __init__(self, directory, script, cwd, flags, seed_flag, raw, expresso, patch=None, note="",
                 ids_from_file_start=False, prelude=None, data="Data", raw_dir="raw", cpu_flags=(), pairs_below=None):
        self.directory, self.script, self.cwd, self.flags = directory, script, cwd, flags
        self.seed_flag, self.raw, self.expresso, self.patch, self.note = seed_flag, raw, expresso, patch, note
        self.ids_from_file_start, self.prelude = ids_from_file_start, prelude
        self.data, self.raw_dir, self.cpu_flags, self.pairs_below = data, raw_dir, list(cpu_flags), pairs_below


# SUN's test_BREC_ds.py and test_BREC_dss.py build get_model(args, in_dim=1, ...) while their
# ego_nets_plus transform gives three input columns (two root marks before the constant 1): the first
# forward of the committed script fails. BREC's numbers need the 3-column model, so it is built so
# (scripts/brec-parameter-counts.py --committed-in-dim shows the failure).
SUN_IN_DIM_3 = """
_get_model = get_model
def get_model(args, in_dim, out_dim, device):
    return _get_model(args, in_dim=3, out_dim=out_dim, device=device)
"""

# SUN's SubgraphData (data.py) keeps each vertex's subgraph number within its own graph in
# `subgraph_batch` and leaves everything but `original_edge_index` to Data.__inc__, written for PyG 1.7.2
# (SUN/environment.yml), whose Data.__inc__ offsets only keys matching 'index' or 'face' by num_nodes and
# everything else by 0. PyG 2 also offsets every key holding 'batch' by its max + 1, so a DataLoader batch
# offsets subgraph_batch by the graphs before it, and models.py's get_subgraph_idx, which adds that same
# offset itself (cumsum of num_subgraphs), counts it twice: 630 subgraph rows against subgraph_idx_batch's
# 320 for 32 ten-vertex graphs. Here SubgraphData's batching is PyG 1.7.2's again: a 'batch' key that is
# not an index one is not offset; every other key is as before. The model, its inputs per graph and the
# training recipe are unchanged; only the batch's numbering is what the code was written against.
SUN_PYG_1_INCREMENT = """
import re as _re, sys as _sys
_SubgraphData = _sys.modules["data"].SubgraphData
_subgraph_inc = _SubgraphData.__inc__
def _inc_as_pyg_1_7(self, key, value, *rest, **kwargs):
    if "batch" in key and not _re.search("(index|face)", key):
        return 0
    return _subgraph_inc(self, key, value, *rest, **kwargs)
_SubgraphData.__inc__ = _inc_as_pyg_1_7
"""

# DropGNN's test_BREC.py sets p = 2/(1 + n) from num_node.npy[id], n of pair id of the full file: on a
# file of the chosen pairs alone, id k is the k-th chosen pair, so its row is looked up by the pair's own
# index (BREC_PAIRS: the chosen pairs, in the file's order).
DROPGNN_NUM_NODES = """
_np_load = np.load
def _load(path, *args, **kwargs):
    out = _np_load(path, *args, **kwargs)
    return out[BREC_PAIRS] if str(path).endswith("num_node.npy") else out
np.load = _load
"""

# SWL's subgraph transform turns an unreachable pair's distance (Floyd-Warshall's inf) into INT64_MIN,
# which its Atom's Embedding(max_dis + 1) lookup refuses: its first forward on a disconnected graph
# (BREC pairs 6, 17, 24, 52, 186, 187, 203, 265, 278, 297) fails. As Expresso's sswl-p settles it, an
# unreachable pair reads a row of its own, max_dis + 1 (the table one row longer; distances as before).
SWL_UNREACHABLE_ROW = """
import sys as _sys
_swl_model = _sys.modules["src.model"]
class _AtomWithUnreachableRow(_swl_model.Atom):
    def __init__(self, dim, max_dis, encode=True):
        super().__init__(dim, max_dis, encode)
        self.embed_d = torch.nn.Embedding(max_dis + 2, dim)
    def forward(self, batch):
        x = self.embed_v(batch.x[:, None]) if self.encode else 0
        d = torch.clamp(batch.d, None, self.max_dis)
        d = torch.where(batch.d < 0, torch.full_like(d, self.max_dis + 1), d)
        batch.x = x + self.embed_d(d)
        del batch.d
        return batch
_swl_model.Atom = _AtomWithUnreachableRow
# PyG 1.x, which SWL was written for, gave None for data[key] of an attribute set to None (SWL's
# attrs_uL/attrs_vL without edge features); PyG 2 does not store such an attribute and raises KeyError
from torch_geometric.data import Data as _Data
_data_getitem = _Data.__getitem__
def _getitem_or_none(self, key):
    try:
        return _data_getitem(self, key)
    except KeyError:
        if isinstance(key, str) and key.startswith("attrs_"):
            return None
        raise
_Data.__getitem__ = _getitem_or_none
"""

# SparseWL's BRECDataset_v3_3wl imports `preprocessing`, SparseWL's C++ module (pybind11, its include
# paths those of its author's machine), and reads its own TU-format brec_v3_3wl files through it. This
# stands in for the two calls the dataset makes, on Data/raw/brec_v3.npy of the chosen pairs: per graph
# the two edge lists of its two-tuple graph (generate_local_sparse_am: tuple (v,w) = v*n + w to (u,w)
# for each neighbour u of v, and to (v,u) for each neighbour u of w), and each tuple's atomic type
# (get_node_labels without vertex or edge labels: equal, adjacent, neither) numbered in order of first
# appearance over the file (get_all_node_labels_brec). It also writes the node counts the dataset
# reads (brec_v3_3wl_nodenum.txt).
SPARSEWL_PREPROCESSING = """
import os, sys, types
import networkx, numpy
_graphs = [networkx.from_graph6_bytes(g) for g in numpy.load(os.path.join("Data", "raw", "brec_v3.npy"), allow_pickle=True)]
numpy.savetxt(os.path.join("Data", "raw", "brec_v3_3wl_nodenum.txt"), [g.number_of_nodes() for g in _graphs], fmt="%d")

def _neighbours(g):
    return [sorted(g.neighbors(v)) for v in range(g.number_of_nodes())]

def get_all_matrices_brec(name):
    out = []
    for g in _graphs:
        n, nb = g.number_of_nodes(), _neighbours(g)
        first = [[v * n + w, u * n + w] for v in range(n) for w in range(n) for u in nb[v]]
        second = [[v * n + w, v * n + u] for v in range(n) for w in range(n) for u in nb[w]]
        out.append((first, second))
    return out

def get_all_node_labels_brec(use_node_labels, use_edge_labels):
    index, out = {}, []
    for g in _graphs:
        n = g.number_of_nodes()
        types_ = [1 if v == w else 3 if g.has_edge(v, w) else 2 for v in range(n) for w in range(n)]
        out.append([index.setdefault(t, len(index)) for t in types_])
    return out

pre = sys.modules["preprocessing"] = types.ModuleType("preprocessing")
pre.get_all_matrices_brec, pre.get_all_node_labels_brec = get_all_matrices_brec, get_all_node_labels_brec
"""

# GSN's encode() one-hot encodes each count column over the values that column takes in the whole file
# the script loads (one_hot_unique): on BREC's brec_v3_s4.g6 (pairs 0-259) 273 slots over the 12
# columns. On a file of the chosen pairs alone it would see fewer values: a model of another width and
# other ranks. Counting the whole file with graph-tool takes hours here (a 40-vertex strongly regular
# graph 15-20 s), so encode() is handed, after the file's graphs, one more row block holding each
# column's values over the whole file, read from Expresso's gsn-brec-count-values.txt by the column's
# name (GSN's column order: its all_simple_graphs k = 4 edge orbits, as its log prints them), and
# returns the file's graphs alone: the ranks and widths of BREC's run on its whole file. Every value
# GSN's own count gives on a chosen pair below 260 must be in that file's column, or the run stops;
# a pair from 260 on (CFI, ...) adds its own values, as BREC's encoder would on a file holding it.
GSN_WHOLE_FILE_VALUES = """
import torch as _torch
_COLUMNS = ["2-path(1,2)", "triangle(2,2)", "3-star(1,3)", "3-path(1,2)", "3-path(2,2)", "tailed-triangle(2,2)",
            "tailed-triangle(2,3)", "tailed-triangle(1,3)", "4-cycle(2,2)", "chordal-cycle(2,3)",
            "chordal-cycle(3,3)", "4-clique(3,3)"]
_values = {}
for _line in open(GSN_VALUES_FILE, encoding="utf-8"):
    if _line.strip() and not _line.startswith("#"):
        _name, _, _vals = _line.rpartition(":")
        _values[_name.strip()] = sorted(int(v) for v in _vals.split(","))
class _WholeFileValues:  # a row block per value; encode() reads .identifiers and sets it
    def __init__(self):
        width = max(len(_values[c]) for c in _COLUMNS)
        self.identifiers = _torch.tensor([[_values[c][min(r, len(_values[c]) - 1)] for c in _COLUMNS]
                                          for r in range(width)], dtype=_torch.long)
_encode = encode
def encode(graphs, *args, **kwargs):
    n, per = len(graphs), 2 * NUM_RELABEL
    for j, pair in enumerate(BREC_PAIRS):
        if pair >= 260:
            continue
        for at in list(range(j * per, (j + 1) * per)) + list(range((j + SAMPLE_NUM) * per, (j + SAMPLE_NUM + 1) * per)):
            ids = graphs[at].identifiers
            for c, name in enumerate(_COLUMNS):
                extra = set(ids[:, c].tolist()) - set(_values[name])
                if extra:
                    raise SystemExit(f"GSN's count of pair {pair} (graph {at}) has {name} values {sorted(extra)} that"
                                     f" {GSN_VALUES_FILE} does not hold for BREC's file")
    out = _encode(list(graphs) + [_WholeFileValues()], *args, **kwargs)
    print("one-hot widths of the count columns:", out[2], "total", sum(out[2]), flush=True)
    return (out[0][:n],) + tuple(out[1:])
"""

# One row per BREC model: the flags are its test_BREC_search*.py's, word for word.
REFERENCES = {
    "ppgn": Reference(
        "ProvablyPowerfulGraphNetworks_torch", "main_scripts/test_BREC.py", "main_scripts",
        ["--config", "configs/BREC.json"], "--SEED={}", "brec_v3.npy", "ppgn"),
    "kp-gnn": Reference(
        "KP-GNN", "test_BREC.py", ".",
        ["--wo_path_encoding", "--K=8", "--kernel=spd", "--num_layer=8", "--hidden_size=32", "--BATCH_SIZE=32",
         "--LEARNING_RATE=1e-4", "--WEIGHT_DECAY=1e-4"], "--SEED={}", "brec_v3.npy", "kp-gnn"),
    "i2gnn": Reference(
        "I2GNN", "test_BREC_no4v_60cfi.py", ".",
        ["--h=8", "--node_label=spd", "--layers=5", "--BATCH_SIZE=16", "--LEARNING_RATE=1e-5",
         "--WEIGHT_DECAY=1e-4"], "--SEED={}", "brec_v3_no4v_60cfi.npy", "i2gnn",
        note="BREC's I2GNN search runs test_BREC_no4v_60cfi.py, whose file has no 4-vertex part and 60 CFI pairs;"
             " the pairs here are taken by their brec_v3.npy index", ids_from_file_start=True),
    "gsn": Reference(
        "GSN", "test_BREC.py", ".",
        ["--mode", "BREC_test", "--dataset", "BREC", "--dataset_name", "brec_v3_s4", "--root_folder", "./datasets",
         "--id_type", "all_simple_graphs", "--induced", "True", "--model_name", "GSN_sparse", "--msg_kind", "general",
         "--num_layers", "4", "--d_out", "64", "--wandb", "False", "--k", "4", "--id_scope", "local"],
        "--seed={}", "brec_v3_s4.g6", "gsn", patch=GSN_WHOLE_FILE_VALUES, ids_from_file_start=True,
        data="datasets/BREC/brec_v3_s4", raw_dir="", cpu_flags=["--GPU", "False"], pairs_below=260,
        note="BREC's GSN search runs GSN-4e (--k 4 --id_scope local) on its own datasets/BREC/brec_v3_s4/brec_v3_s4.g6,"
             " pairs 0-259 in brec_v3.npy's layout (each pair's 64 graphs, then 260 pairs on its reliability graphs),"
             " the same graphs as brec_v3.npy's pairs 0-259 relabelled otherwise: its file here holds the chosen pairs'"
             " graphs of brec_v3.npy, as Expresso's; its count one-hot widths and ranks are those of its whole file,"
             " the values read from Expresso's gsn-brec-count-values.txt, checked against its own counts"
             " (GSN_WHOLE_FILE_VALUES); --GPU False on the CPU (its default True asks CUDA for a device name);"
             " --seed is the seed it sets (its --SEED is only logged)"),
    "ds-gnn": Reference(
        "SUN", "test_BREC_ds.py", ".",
        ["--policy=ego_nets_plus", "--model=deepsets", "--channels=64-64", "--gnn_type=originalgin",
         "--drop_ratio=0.0", "--jk=last", "--num_hops=6", "--num_layer=10", "--emb_dim=32", "--BATCH_SIZE=32"],
        "--SEED={}", "brec_v3.npy", "ds-gnn", patch=SUN_IN_DIM_3 + SUN_PYG_1_INCREMENT,
        note="test_BREC_ds.py with in_dim=3 where the committed script passes 1 (its first forward fails on"
             " ego_nets_plus's 3 columns); SubgraphData batched as under PyG 1.7.2 (subgraph_batch not offset)"),
    "dss-gnn": Reference(
        "SUN", "test_BREC_dss.py", ".",
        ["--policy=ego_nets_plus", "--model=dss", "--channels=64-64", "--gnn_type=originalgin", "--drop_ratio=0.0",
         "--jk=last", "--num_hops=6", "--num_layer=9", "--emb_dim=32", "--BATCH_SIZE=32", "--LEARNING_RATE=1e-4",
         "--WEIGHT_DECAY=1e-4", "--LOSS_THRESHOLD=0.01", "--EPOCH=20"],
        "--SEED={}", "brec_v3.npy", "dss-gnn", patch=SUN_IN_DIM_3 + SUN_PYG_1_INCREMENT,
        note="test_BREC_dss.py with in_dim=3 where the committed script passes 1; SubgraphData batched as under"
             " PyG 1.7.2 (subgraph_batch not offset)"),
    "sun": Reference(
        "SUN", "test_BREC_sun.py", ".",
        ["--policy=ego_nets_plus", "--model=sun", "--channels=64-64", "--gnn_type=originalgin", "--drop_ratio=0.0",
         "--jk=last", "--num_hops=6", "--num_layer=9", "--emb_dim=32", "--BATCH_SIZE=32", "--LEARNING_RATE=1e-4",
         "--WEIGHT_DECAY=1e-4", "--LOSS_THRESHOLD=0.01", "--EPOCH=20"],
        "--SEED={}", "brec_v3.npy", "sun", patch=SUN_IN_DIM_3 + SUN_PYG_1_INCREMENT,
        note="test_BREC_sun.py with in_dim=3 where the committed script passes 1; SubgraphData batched as under"
             " PyG 1.7.2 (subgraph_batch not offset); its search script's --device=1 left out as for DS/DSS (the"
             " harness picks the device); BREC's SUN run reads 270 pairs (Basic, 60-109, Extension, CFI 260-319),"
             " the pairs here are taken by their brec_v3.npy index"),
    "ngnn-de": Reference(
        "NestedGNN", "test_BREC.py", ".",
        ["--h=8", "--layers=6", "--width=128", "--OUTPUT_DIM=16", "--BATCH_SIZE=32", "--LEARNING_RATE=1e-4",
         "--WEIGHT_DECAY=1e-5", "--node_label=hop", "--EPOCH=30"], "--SEED={}", "brec_v3.npy", "ngnn-de",
        ids_from_file_start=True),
    "ngnn": Reference(
        "NestedGNN", "test_BREC.py", ".",
        ["--h=1", "--layers=6", "--width=16", "--OUTPUT_DIM=16", "--BATCH_SIZE=32", "--LEARNING_RATE=1e-4",
         "--WEIGHT_DECAY=1e-5", "--node_label=no"], "--SEED={}", "brec_v3.npy", "ngnn",
        ids_from_file_start=True,
        note="test_BREC_search_ngnn.py's flags; its EPOCH is test_BREC.py's default, 30"),
    "dropgnn": Reference(
        "DropGNN", "test_BREC.py", ".",
        ["--hidden_units", "16", "--num_layers", "10", "--augmentation", "dropout", "--OUTPUT_DIM=16",
         "--BATCH_SIZE=16", "--LEARNING_RATE=0.0001", "--WEIGHT_DECAY=1e-05", "--device=0", "--num_runs=100",
         "--EPOCH=100"], "--SEED={}", "brec_v3.npy", "dropgnn", patch=DROPGNN_NUM_NODES,
        note="num_node.npy (each pair's n for p = 2/(1 + n)) is read at the pairs' own indices, not at their places"
             " in the file of the chosen pairs", ids_from_file_start=True),
    "gnn-ak": Reference(
        "GNNAsKernel", "test_BREC.py", ".", [], "--SEED={}", "brec_v3.npy", "gnn-ak",
        patch='cfg.device = "cpu"',
        note="its search script passes only --SEED; its settings are train/configs/BREC.yaml's, which its __main__"
             " block reads; the model is moved to cfg.device, 1 (cuda:1) as committed, which a machine without a"
             " second GPU lacks: the CPU here (on a GPU the script's own data device, cuda:1, needs the same mend)"),
    "sswl-p": Reference(
        "SWL", "test_BREC.py", ".",
        ["--model=SSWL_P", "--max_dis=8", "--num_layer=8", "--dim_embed=64", "--BATCH_SIZE=8",
         "--LEARNING_RATE=1e-5", "--WEIGHT_DECAY=1e-5", "--device=2"], "--SEED={}", "brec_v3_3wl.npy", "sswl-p",
        patch=SWL_UNREACHABLE_ROW, ids_from_file_start=True,
        note="test_BREC.py with an unreachable pair's own distance row, as Expresso's (the committed code fails on"
             " disconnected graphs); BREC's SWL runs its 3-WL file's 270 pairs (Basic, 60-109, Extension, CFI"
             " 260-319), the pairs here are taken by their brec_v3.npy index"),
    "delta-k-lgnn": Reference(
        "SparseWL/neural_higher_order/BREC", "test_BREC.py", ".", [], "--SEED={}", "brec_v3.npy", "delta-k-lgnn",
        prelude=SPARSEWL_PREPROCESSING, ids_from_file_start=True,
        note="SparseWL's compiled preprocessing module stands in as Python over the chosen pairs' brec_v3.npy"
             " (SPARSEWL_PREPROCESSING); BREC's own run reads its brec_v3_3wl file of 270 pairs"),
    "kc-setgnn": Reference(
        "KCSetGNN", "test_BREC.py", ".", [], "--SEED={}", "brec_v3_3wl.npy", "kc-setgnn",
        patch='cfg.device = "cpu"\nKCSetWLSubgraphs.__abstractmethods__ = frozenset()',
        note="its search script passes only --SEED; its settings are train/configs/BREC.yaml's, which its __main__"
             " block reads; the model is moved to cfg.device, 0 (cuda:0) as committed: the CPU here; its transform"
             " defines __call__ as PyG 2.0's BaseTransform wanted, PyG 2.8's also declares forward abstract: that"
             " declaration is lifted, __call__ runs as written; BREC's run"
             " reads its 3-WL file's 270 pairs (Basic, 60-109, Extension, CFI 260-319), the pairs here are taken by"
             " their brec_v3.npy index; torch_scatter's max stands in as PyG's (a tie's gradient to every tied set)"),
}
# a BREC directory names its model too (SUN holds three: ds-gnn, dss-gnn and sun)
DIRECTORY_ALIASES = {"ProvablyPowerfulGraphNetworks_torch": "ppgn", "GSN": "gsn", "PPGN": "ppgn", "KP-GNN": "kp-gnn",
                     "I2GNN": "i2gnn", "NestedGNN": "ngnn-de", "GNNAsKernel": "gnn-ak", "SUN/ds": "ds-gnn", "SUN/dss": "dss-gnn", "SUN/sun": "sun",
                     "DropGNN": "dropgnn", "SWL": "sswl-p",
                     "SparseWL": "delta-k-lgnn", "KCSetGNN": "kc-setgnn"}

# Runs a test_BREC*.py unchanged but for what the pairs need. argv[1] the script, argv[2] JSON
# {"parts": {name: [start, end)}, "samples": n, "patch": code or null}, the rest its own arguments.
# Modules it imports that no BREC run calls stand in as modules that raise when used; torch_scatter
# and torch_sparse, where missing, as a few lines on PyTorch (installed after torch_geometric is
# imported, so that PyG itself goes on using its own code).
LIMITER = r'''
import importlib, importlib.machinery, json, sys, types
script, cfg = sys.argv[1], json.loads(sys.argv[2])
sys.argv = [script] + sys.argv[3:]
import torch, torch_geometric, torch_geometric.utils

class Absent(types.ModuleType):
    def __init__(self, name):
        super().__init__(name)
        self.__spec__ = importlib.machinery.ModuleSpec(name, None)
        self.__path__ = []
    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        module = self.__name__
        def absent(*a, **k):
            raise RuntimeError(f"{module}.{attr} is not installed here (only imported by the script)")
        return type(attr, (), {"__init__": absent, "__call__": absent})

def stand_in(name, fill=None):
    try:
        importlib.import_module(name)
        return False
    except ImportError:
        m = sys.modules[name] = Absent(name)
        if fill:
            fill(m)
        return True

def scatter_fill(m):
    def scatter(src, index, dim=-1, out=None, dim_size=None, reduce="sum"):
        if out is not None:
            raise RuntimeError("torch_scatter stand-in: out= is not supported")
        return torch_geometric.utils.scatter(src, index, dim=dim, dim_size=dim_size, reduce=reduce)
    m.scatter = scatter
    m.scatter_add = lambda src, index, dim=-1, out=None, dim_size=None: scatter(src, index, dim, out, dim_size, "sum")
    m.scatter_mean = lambda src, index, dim=-1, out=None, dim_size=None: scatter(src, index, dim, out, dim_size, "mean")

def sparse_fill(m):
    def coalesce(index, value, m_, n, op="add"):
        return torch_geometric.utils.coalesce(index, value, num_nodes=max(m_, n), reduce="sum" if op == "add" else op)
    m.coalesce = coalesce
    class SparseTensor:  # a 0/1 adjacency times a dense matrix: GNNAsKernel's k_hop_subgraph and KCSetGNN's k-sets use nothing else
        def __init__(self, row=None, col=None, value=None, sparse_sizes=None, **rest):
            if value is not None or rest:
                raise RuntimeError("torch_sparse stand-in: only SparseTensor(row=, col=, sparse_sizes=)")
            self.row, self.col, self.sizes = row, col, sparse_sizes
        def size(self, dim):
            return self.sizes[dim]
        def matmul(self, dense):
            out = dense.new_zeros((self.sizes[0],) + tuple(dense.shape[1:]))
            return out.index_add_(0, self.row, dense[self.col])
    m.SparseTensor = SparseTensor

def yacs_fill(m):
    # yacs's CfgNode as GNNAsKernel's config uses it: attribute access, nested nodes, a YAML file and
    # KEY VALUE lists merged in, string values read as Python literals where they are ones ('(0, 1, 2)')
    import ast, copy
    def literal(v):
        if isinstance(v, str):
            try:
                return ast.literal_eval(v)
            except (ValueError, SyntaxError):
                return v
        return v
    class CfgNode(dict):
        def __getattr__(self, k):
            try:
                return self[k]
            except KeyError:
                raise AttributeError(k)
        def __setattr__(self, k, v):
            self[k] = v
        def clone(self):
            return copy.deepcopy(self)
        def merge(self, d):
            for k, v in d.items():
                if k not in self:
                    raise KeyError(f"yacs stand-in: unknown config key {k}")
                if isinstance(v, dict):
                    self[k].merge(v)
                else:
                    self[k] = literal(v)
        def merge_from_file(self, path):
            import yaml
            with open(path, encoding="utf-8") as f:
                self.merge(yaml.safe_load(f))
        def merge_from_list(self, opts):
            for key, v in zip(opts[0::2], opts[1::2]):
                node, *path = [self] + key.split(".")[:-1]
                for p in path:
                    node = node[p]
                node[key.split(".")[-1]] = literal(v)
    config = sys.modules["yacs.config"] = Absent("yacs.config")
    config.CfgNode = m.CfgNode = CfgNode
    m.config = config

def bond_encoder_fill(m):
    # ogb 1.3's BondEncoder: one Embedding per bond feature (type 5, stereo 6, conjugated 2), Xavier-uniform,
    # built so that the model's parameters and random draws are ogb's; BREC's graphs carry no bond features
    class BondEncoder(torch.nn.Module):
        def __init__(self, emb_dim):
            super().__init__()
            self.bond_embedding_list = torch.nn.ModuleList(torch.nn.Embedding(r, emb_dim) for r in (5, 6, 2))
            for e in self.bond_embedding_list:
                torch.nn.init.xavier_uniform_(e.weight.data)
        def forward(self, edge_attr):
            raise RuntimeError("BondEncoder stand-in: BREC's graphs carry no bond features")
    m.BondEncoder = BondEncoder

used = []
for name, fill, what in (("torch_scatter", scatter_fill, "stand-in on PyTorch"),
                        ("torch_sparse", sparse_fill, "stand-in on PyTorch"),
                        ("yacs", yacs_fill, "stand-in: a CfgNode of a few lines"),
                        ("ogb.graphproppred.mol_encoder", bond_encoder_fill, "stand-in: ogb's BondEncoder shapes")):
    if stand_in(name, fill):
        used.append(f"{name} ({what})")
for name in ("ogb", "ogb.graphproppred", "ogb.graphproppred.mol_encoder", "ogb.utils", "ogb.utils.features",
             "ogb.io", "ogb.lsc", "sklearn", "sklearn.model_selection", "sklearn.preprocessing", "matplotlib",
             "matplotlib.pyplot", "rdkit", "rdkit.Chem", "rdkit.Chem.rdchem", "wandb", "torch_cluster",
             "torch.utils.tensorboard"):
    if stand_in(name):
        used.append(name + " (absent: raises if called)")
import networkx
if not hasattr(networkx, "from_numpy_matrix"):  # networkx 3 dropped 2.x's alias of from_numpy_array
    networkx.from_numpy_matrix = networkx.from_numpy_array
    used.append("networkx.from_numpy_matrix (2.x's alias of from_numpy_array)")
from torch_geometric.data import Data
if callable(getattr(Data, "keys", None)) and not isinstance(Data.keys, property):
    # PyG 2.4 made Data.keys a method; scripts written for PyG 1.x/2.0 iterate data.keys: a list that is also callable
    class Keys(list):
        def __call__(self):
            return list(self)
    _keys = Data.keys
    Data.keys = property(lambda self: Keys(_keys(self)))
    used.append("Data.keys (a callable list: PyG 1.x's property, 2.4's method)")
if cfg.get("prelude"):
    exec(cfg["prelude"], {"__name__": "prelude"})
    used.append("the model's prelude (the row's note)")
print("stand-ins:", ", ".join(used) or "none", flush=True)
ns = {"__name__": "test_BREC_limited", "__file__": script, "__builtins__": __builtins__}
exec(compile(open(script, encoding="utf-8").read(), script, "exec"), ns)
import inspect
run_main = ns.get("main")
if run_main is None or inspect.signature(run_main).parameters:
    # a script whose steps sit in its `if __name__ == "__main__":` block (GSN's main(args) is called from there):
    # that block is its main()
    import ast
    tree = ast.parse(open(script, encoding="utf-8").read())
    block = [n.body for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)]
    block_code = compile(ast.Module(body=block[0], type_ignores=[]), script, "exec")
    run_main = lambda: exec(block_code, ns)  # (not ns["main"]: the block may call the script's main(args))
    print("main(): the script's __main__ block", flush=True)
import inspect
for module in list(sys.modules.values()):  # PyG 1.x's Data subclasses: __inc__(self, key, value), PyG 2 passes more
    for cls in [o for o in list(vars(module).values()) if isinstance(o, type) and issubclass(o, Data) and o is not Data]:
        for name in ("__inc__", "__cat_dim__"):
            f = cls.__dict__.get(name)
            if f is not None and len(inspect.signature(f).parameters) == 3:
                setattr(cls, name, (lambda f: lambda self, key, value, *rest, **kw: f(self, key, value))(f))
                print(f"stand-in: {cls.__name__}.{name} called as PyG 1.x did (key, value)", flush=True)
ns["part_dict"].clear()
ns["part_dict"].update({k: tuple(v) for k, v in cfg["parts"].items()})
ns["SAMPLE_NUM"] = cfg["samples"]
ns["BREC_PAIRS"] = cfg["pairs"]  # the chosen pairs' indices in the full file, in the compact file's order
ns["BREC_FILE"] = cfg["brec_file"]  # the whole brec_v3.npy the chosen pairs come from
ns["GSN_VALUES_FILE"] = cfg["gsn_values_file"]  # Expresso's per-column count values of BREC's GSN file
if cfg["patch"]:
    exec(cfg["patch"], ns)
print("part_dict narrowed to", ns["part_dict"], "SAMPLE_NUM", ns["SAMPLE_NUM"], flush=True)
run_main()
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


def chosen_pairs(ranges):
    """The pairs asked for, each once, in BREC's order: the reference's file holds them in this order."""
    return sorted({i for a, b in ranges for i in range(a, b + 1)})


def compact_parts(chosen):
    """The reference's part_dict over its file of the chosen pairs alone: name -> [start, end) there."""
    parts = {}
    for name, lo, hi in BREC_PARTS:
        at = [j for j, i in enumerate(chosen) if lo <= i < hi]
        if at:
            parts[name] = [at[0], at[-1] + 1]
    return parts


def write_compact_file(brec_file, chosen, dest):
    """brec_v3.npy's graphs of the chosen pairs, in BREC's layout: every pair's 64 graphs, then every
    pair's 64 reliability graphs (a script reads pair k's at k * 64 and (k + SAMPLE_NUM) * 64)."""
    import numpy as np
    graphs = np.load(brec_file, allow_pickle=True)
    pairs = len(graphs) // (2 * PAIR_GRAPHS)
    take = [i * PAIR_GRAPHS + g for i in chosen for g in range(PAIR_GRAPHS)]
    take += [(i + pairs) * PAIR_GRAPHS + g for i in chosen for g in range(PAIR_GRAPHS)]
    if dest.endswith(".g6"):  # graph6 text, one graph a line (GSN's load_g6_graphs reads it with networkx)
        with open(dest, "wb") as f:
            for g in graphs[take]:
                f.write(bytes(g).strip() + b"\n")
    else:
        np.save(dest, graphs[take])


def file_md5(path):
    import hashlib
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def uptime():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return "load average " + " ".join(f.read().split()[:3])
    except OSError:
        return "load average unknown"


def run(cmd, log, env=None, cwd=None):
    # the harness's own code (LIMITER, a row's prelude inside the JSON) shown by name, not in full
    shown = ["LIMITER" if c == LIMITER else re.sub(r'"(prelude|patch)": "(?:[^"\\]|\\.)+"', r'"\1": "..."', c) for c in cmd]
    print(f"$ {' '.join(shlex.quote(c) for c in shown)}", file=sys.stderr, flush=True)
    t = time.monotonic()
    with open(log, "w", encoding="utf-8") as f:
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    return rc, time.monotonic() - t


def fetch_reference(brec, directory, dest):
    """One BREC model directory from a work tree or a git directory, into dest."""
    if os.path.isdir(os.path.join(brec, directory)):
        shutil.copytree(os.path.join(brec, directory), dest)
    else:
        tar = subprocess.run(["git", f"--git-dir={brec}", "archive", "HEAD", directory], check=True,
                             capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            for m in t.getmembers():
                if m.name.startswith(directory + "/"):
                    m.name = m.name[len(directory) + 1:]
                    t.extract(m, dest)
    cfg = os.path.join(dest, "configs", "BREC.json")
    if os.path.exists(cfg):
        # PPGN's test_BREC.py sets CUDA_VISIBLE_DEVICES from the config's "gpu" ("1" as published): we set it ourselves
        with open(cfg, encoding="utf-8") as f:
            c = json.load(f)
        c["gpu"] = os.environ.get("CUDA_VISIBLE_DEVICES", "")
        with open(cfg, "w", encoding="utf-8") as f:
            json.dump(c, f, indent=2)


def read_reference(log, parts, chosen, ref_row):
    """{index: {distinguished, reliable, t2, seconds, epochs}} from a test_BREC*.py's loguru log; its
    'ID: k' counts from the part's start in the file of the chosen pairs (or the file's, as the row says)."""
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
                at = int(msg[4:]) + (0 if ref_row.ids_from_file_start else starts[part])
                cur = {"index": chosen[at], "start": t, "epochs": 0}
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


def prepare_reference(a, ref_row, brec_file, chosen, gpu):
    """The BREC model directory in WORK/ref, reading WORK/ref-data (Data/) where its raw file holds the
    chosen pairs alone; the script converts that file the first time it runs (kept in WORK/ref-data
    for later runs of the same model and pairs, and out of the timing). Returns its environment and folder."""
    ref = os.path.join(a.work, "ref")
    shutil.rmtree(ref, ignore_errors=True)
    env = dict(os.environ)
    env["CUDA_VISIBLE_DEVICES"] = a.device.split(":", 1)[1] if gpu else ""
    fetch_reference(a.brec, ref_row.directory, ref)
    data = os.path.join(a.work, "ref-data")
    # the file's content, not its path and time: --raw rebuilds the same file in every run
    key = json.dumps({"model": a.model, "file_md5": file_md5(brec_file), "pairs": chosen})
    key_file = os.path.join(data, "pairs.json")
    if not os.path.exists(key_file) or open(key_file, encoding="utf-8").read() != key:
        shutil.rmtree(data, ignore_errors=True)  # another model, file or pair set: convert anew
        os.makedirs(os.path.join(data, ref_row.raw_dir), exist_ok=True)
        write_compact_file(brec_file, chosen, os.path.join(data, ref_row.raw_dir, ref_row.raw))
        with open(key_file, "w", encoding="utf-8") as f:
            f.write(key)
    link = os.path.join(ref, ref_row.data)
    shutil.rmtree(link, ignore_errors=True)
    os.makedirs(os.path.dirname(link), exist_ok=True)
    os.symlink(os.path.abspath(data), link)
    env["PYTHONPATH"] = ":".join(p for p in [a.pythonpath, env.get("PYTHONPATH", "")] if p)
    env["PYTHONUNBUFFERED"] = "1"
    # the scripts torch.load the dataset they saved themselves, written before PyTorch 2.6 made
    # weights_only=True the default (which refuses PyG's Data classes)
    env.setdefault("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    return env, ref


def run_reference(a, ref_row, env, ref, parts, seed, out_dir):
    """One run of the BREC script on the parts; its log copied to OUT_DIR/reference-log.txt. Returns (rc, seconds)."""
    homes = {ref, os.path.join(ref, ref_row.cwd)}  # its result_BREC*/ folder, wherever the script puts it

    def results():
        return [os.path.join(h, d) for h in homes for d in os.listdir(h) if d.startswith("result_BREC")]
    for d in results():
        shutil.rmtree(d, ignore_errors=True)
    cfg = json.dumps({"parts": parts, "samples": len(a.chosen), "pairs": a.chosen, "patch": ref_row.patch,
                      "prelude": ref_row.prelude, "brec_file": a.brec_file_path,
                      "gsn_values_file": GSN_VALUES_FILE})
    rc, s = run([a.python, "-c", LIMITER, os.path.join(ref, ref_row.script), cfg] + ref_row.flags
                + (ref_row.cpu_flags if a.device == "cpu" else []) + shlex.split(a.ref_args) + [ref_row.seed_flag.format(seed)], os.path.join(out_dir, "reference-stdout.txt"), env=env,
                cwd=os.path.join(ref, ref_row.cwd))
    logs = sorted((os.path.join(r, f) for d in results() for r, _, fs in os.walk(d) for f in fs if f.startswith("log")),
                  key=os.path.getmtime)  # loguru rotates log.txt at 5 MB
    with open(os.path.join(out_dir, "reference-log.txt"), "w", encoding="utf-8") as out:
        for l in logs:
            with open(l, encoding="utf-8", errors="replace") as f:
                out.write(f.read())
    return rc, s


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
        per = [w for r in rounds for w in r[2] if w["category"] == name]  # rounds that judged it (a cut run may not)
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


def pair_lines(ex, ref, chosen):
    """Every pair's verdict both sides: distinguished (Y/N), reliability failure (!), T², seconds."""
    def side(o):
        if o is None:
            return "-", "-", "-"
        t2 = o.get("t2_test", o.get("t2"))
        mark = ("Y" if o["distinguished"] else "N") + ("" if o["reliable"] else " !")
        if t2 is None and o["distinguished"]:
            t2 = float("inf")  # results files write T² = +inf (S = 0, D̄ ≠ 0) as null
        return mark, (f"{t2:.4g}" if isinstance(t2, (int, float)) else "-"), f"{o['seconds']:.2f}"
    lines = ["| pair | category | E | R | T² E | T² R | s E | s R |", "|---|---|---|---|---|---|---|---|"]
    for i in chosen:
        (em, et, es), (rm, rt, rs) = side(ex.get(i)), side(ref.get(i))
        lines.append(f"| {i} | {category(i)} | {em} | {rm} | {et} | {rt} | {es} | {rs} |")
    return lines


def seed_spread(per_seed, chosen):
    """The reference's own spread: reliably distinguished per category for each seed, and the pairs
    whose verdict changes with the seed."""
    names = [n for n, lo, hi in BREC_PARTS if any(lo <= i < hi for i in chosen)]
    lines = ["| --SEED | " + " | ".join(names) + " | total |", "|---" * (len(names) + 2) + "|"]
    for seed, refd in per_seed:
        counts = [sum(1 for i in chosen if category(i) == n and i in refd and refd[i]["distinguished"]
                      and refd[i]["reliable"]) for n in names]
        judged = sum(1 for i in chosen if i in refd)
        lines.append(f"| {seed} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} ({judged} judged) |")
    changing = [i for i in chosen if len({refd[i]["distinguished"] for _, refd in per_seed if i in refd}) > 1]
    lines.append("")
    lines.append("pairs whose verdict changes with the seed: " + (", ".join(map(str, changing)) or "none"))
    return lines


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brec", required=True, help="a clone or git directory of GraphPKU/BREC")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--raw", help="BREC's raw files: brec_v3.npy is built from them by `expresso suite build-brec`")
    src.add_argument("--brec-file", help="an existing brec_v3.npy")
    ap.add_argument("--model", default="ppgn", help="which BREC model: " + ", ".join(REFERENCES) + ", or its BREC"
                    " directory (" + ", ".join(DIRECTORY_ALIASES) + "); default ppgn")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs the reference (default: this one)")
    ap.add_argument("--pythonpath", default="", help="folders put before the reference's PYTHONPATH (':'-separated)")
    ap.add_argument("--device", default="cpu", help="cpu or gpu:N, for both (default cpu)")
    ap.add_argument("--pairs", default="0-159,260-299", help="ranges of BREC pair indices, e.g. 0-159,260-299")
    ap.add_argument("--expresso", default=os.path.join(here, "expresso"), help="the command that runs Expresso")
    ap.add_argument("--expresso-args", default="", help="more arguments for `expresso eval` (e.g. '--memory-budget 1g')")
    ap.add_argument("--ref-args", default="", help="more arguments for the reference script, after its search flags"
                    " (argparse keeps the last: e.g. '--EPOCH=10' beside --expresso-args '--epochs 10')")
    ap.add_argument("--pairs-at-once", type=int, default=1,
                    help="Expresso's pairs judged at once (default 1: each pair alone, as the reference's; 0: eval's"
                    " own default, one per two cores)")
    ap.add_argument("--threads", type=int, default=0,
                    help="intra-op threads for both sides: OMP_NUM_THREADS and MKL_NUM_THREADS for the reference's"
                    " PyTorch, ai.djl.pytorch.num_threads for Expresso's (default 0: each side's own, two on this"
                    " machine for both). On a 2-core machine shared with other work, two threads per side made"
                    " BatchNorm-heavy models (SUN) 20-30x slower on both sides (docs/results/brec-side-by-side-models.md)")
    ap.add_argument("--seed", type=int, default=0, help="Expresso's seed (default 0)")
    ap.add_argument("--ref-seed", type=int, default=100, help="the script's --SEED (default 100, BREC's first)")
    ap.add_argument("--ref-seeds", default="", help="after the rounds, run the reference alone once per seed"
                    " (','-separated, e.g. 100,200,300) and report its own spread across them")
    ap.add_argument("--work", default="/tmp/brec-side-by-side", help="work folder (emptied first)")
    ap.add_argument("--out", default=None, help="write the Markdown table here (and every pair to its .json)")
    ap.add_argument("--skip", choices=["expresso", "reference", "both"],
                    help="run only the other one, or neither (reads the last run's files)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run Expresso then the reference this many times in turn, each round in WORK/round-K, and "
                    "report every round's ratio and the medians over rounds (default 1)")
    ap.add_argument("--reference-log", help="with --skip reference or both: the reference-log.txt files of earlier runs"
                    " of this script with the same --model and --pairs (','-separated), read instead of the work folder's")
    ap.add_argument("--prepare-only", action="store_true",
                    help="only let the reference convert its file of the pairs into WORK/ref-data (kept by later runs"
                    " with the same --work, --model and --pairs), e.g. in the background while something else runs")
    a = ap.parse_args()

    a.model = DIRECTORY_ALIASES.get(a.model.rstrip("/"), a.model)
    if a.model not in REFERENCES:
        raise SystemExit(f"--model: '{a.model}' is none of " + ", ".join(list(REFERENCES) + list(DIRECTORY_ALIASES)))
    ref_row = REFERENCES[a.model]
    ranges = parse_pairs(a.pairs)
    if ref_row.pairs_below is not None and any(hi >= ref_row.pairs_below for _, hi in ranges):
        print(f"note: BREC's {ref_row.directory} file holds pairs 0-{ref_row.pairs_below - 1}; pairs from"
              f" {ref_row.pairs_below} on are run by its script all the same, beyond BREC's own run", file=sys.stderr)
    a.chosen = chosen_pairs(ranges)
    ref_seeds = [int(x) for x in a.ref_seeds.split(",") if x.strip()]
    if a.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    if a.pairs_at_once < 0:
        raise SystemExit("--pairs-at-once must be 0 (eval's default) or more")
    if a.threads < 0:
        raise SystemExit("--threads must be 0 (each side's own) or more")
    if a.threads:
        # inherited by both: the reference's environment is a copy of this one, Expresso runs in it
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "ai.djl.pytorch.num_threads"):
            os.environ[var] = str(a.threads)
    gpu = a.device.startswith("gpu")
    if a.skip is None and os.path.isdir(a.work):
        for name in os.listdir(a.work):  # all but the reference's converted dataset (minutes to make)
            if name != "ref-data":
                p = os.path.join(a.work, name)
                shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.remove(p)
    os.makedirs(a.work, exist_ok=True)
    expresso = shlex.split(a.expresso)
    notes = [f"pairs {a.pairs}, device {a.device}, {os.cpu_count()} CPUs, {uptime()} at the start"
             + (f", {a.threads} intra-op thread(s) per side" if a.threads else "")]
    if ref_row.note:
        notes.append("reference: " + ref_row.note)

    brec_file = a.brec_file
    if a.raw:
        brec_file = os.path.join(a.work, "brec_v3.npy")
        if not os.path.exists(brec_file):
            rc, _ = run(expresso + ["suite", "build-brec", "--raw", a.raw, "--out", brec_file],
                        os.path.join(a.work, "build-brec.log"))
            if rc != 0:
                raise SystemExit(f"build-brec failed (rc {rc}), see {a.work}/build-brec.log")
    brec_file = a.brec_file_path = os.path.abspath(brec_file)
    parts = compact_parts(a.chosen)

    if a.prepare_only:
        t0 = time.time()
        env, ref = prepare_reference(a, ref_row, brec_file, a.chosen, gpu)
        rc, _ = run_reference(a, ref_row, env, ref, {}, a.ref_seed, a.work)  # no part: the conversion alone
        if rc != 0:
            raise SystemExit(f"the reference's dataset step failed (rc {rc}), see {a.work}/reference-stdout.txt")
        print(f"the reference's dataset is ready in {os.path.join(a.work, 'ref-data')} ({time.time() - t0:.1f} s)")
        return 0

    # ---- the rounds: Expresso, then the reference, in turn (never at once); a machine whose speed
    # drifts moves both alike within a round, so the ratio of a round is the figure to trust
    rounds = []
    ref_ready = False
    for k in range(1, a.rounds + 1):
        ex_judging = None
        out_dir = a.work if a.rounds == 1 else os.path.join(a.work, f"round-{k}")
        os.makedirs(out_dir, exist_ok=True)
        ex_file = os.path.join(out_dir, "expresso.jsonl")
        if a.skip not in ("expresso", "both"):
            log = os.path.join(out_dir, "expresso.log")  # one eval for every pair: one JVM start-up
            rc, wall = run(expresso + ["eval", "--model", ref_row.expresso, "--suite", f"brec:{brec_file}",
                                       "--pairs", ",".join(f"{lo}-{hi}" if lo < hi else str(lo) for lo, hi in ranges),
                                       "--device", a.device, "--seed", str(a.seed), "--results", ex_file, "--no-resume"]
                           + (["--pairs-at-once", str(a.pairs_at_once)] if a.pairs_at_once > 0 else [])
                           + shlex.split(a.expresso_args), log)
            if rc not in (0, 1):
                print(f"expresso eval ended with rc {rc}, see {log}", file=sys.stderr)
            m = EVAL_ELAPSED.search(open(log, encoding="utf-8", errors="replace").read())
            notes.append(f"round {k}: Expresso rc {rc}, {wall:.1f} s wall (JVM start-up included), {uptime()} after")
            ex_judging = (float(m.group(1)), m.group(2)) if m else None
        ref_log = os.path.join(out_dir, "reference-log.txt")
        if a.skip not in ("reference", "both"):
            if not ref_ready:
                env, ref = prepare_reference(a, ref_row, brec_file, a.chosen, gpu)
                ref_ready = True
            rc, s = run_reference(a, ref_row, env, ref, parts, a.ref_seed, out_dir)
            notes.append(f"round {k}: reference rc {rc}, {s:.1f} s wall (Python start-up, dataset conversion or load"
                         f" included), {uptime()} after")
        ex = read_expresso([ex_file])
        refd = {}
        for log in (a.reference_log.split(",") if a.reference_log else [ref_log]):
            refd.update(read_reference(log, parts, a.chosen, ref_row))
        rounds.append((ex, refd) + table(ex, refd, ranges))
        if ex_judging and ex_judging[0] > 0 and refd:
            # the throughput a user sees: Expresso's pairs may run side by side (--pairs-at-once), the
            # reference's one after another
            r_sum = sum(refd[i]["seconds"] for i in ex if i in refd)
            notes.append(f"round {k}: time judging the pairs, Expresso {ex_judging[0]:.1f} s ({ex_judging[1]} at once;"
                         f" its eval's 'elapsed'), reference {r_sum:.1f} s (its pairs' seconds summed), "
                         f"E / R {ex_judging[0] / r_sum:.2f}")

    # ---- the reference's own spread across its seeds (the reference alone, one run per seed)
    per_seed = []
    for seed in ref_seeds:
        out_dir = os.path.join(a.work, f"ref-seed-{seed}")
        if a.skip not in ("reference", "both"):  # (with --skip, an earlier run's files are read)
            if not ref_ready:
                env, ref = prepare_reference(a, ref_row, brec_file, a.chosen, gpu)
                ref_ready = True
            os.makedirs(out_dir, exist_ok=True)
            rc, s = run_reference(a, ref_row, env, ref, parts, seed, out_dir)
            notes.append(f"reference --SEED {seed}: rc {rc}, {s:.1f} s wall, {uptime()} after")
        log = os.path.join(out_dir, "reference-log.txt")
        if os.path.exists(log):
            per_seed.append((seed, read_reference(log, parts, a.chosen, ref_row)))

    ex, refd, rows, lines, differ, missing = rounds[-1]
    if per_seed and refd and a.ref_seed not in ref_seeds:
        per_seed.insert(0, (a.ref_seed, refd))  # the rounds' own seed (the last round's run)
    if len(rounds) > 1:
        rows, lines = summary(rounds)
    at_once = f"--pairs-at-once {a.pairs_at_once} " if a.pairs_at_once > 0 else ""
    command = f"eval --model {ref_row.expresso} --device {a.device} --seed {a.seed} {at_once}{a.expresso_args}".strip()
    script = " ".join([os.path.join(ref_row.directory, ref_row.script)] + ref_row.flags + shlex.split(a.ref_args)
                      + [ref_row.seed_flag.format(a.ref_seed)])
    report = [f"Expresso `{command}` (E) beside BREC's `{script}` (R), `{os.path.basename(brec_file)}`", ""] + lines + [""]
    report.append("verdicts agree on every common pair" if not differ else
                  f"verdicts differ on {len(differ)} pairs: " + ", ".join(
                      f"{i} (E {'Y' if ex[i]['distinguished'] else 'N'}, R {'Y' if refd[i]['distinguished'] else 'N'})"
                      for i in differ))
    if missing:
        report.append(f"{len(missing)} pairs not judged by both: {missing[:20]}{' ...' if len(missing) > 20 else ''}")
    report += ["", f"every pair (last round; Y distinguished, N not, ! reliability failure):", ""]
    report += pair_lines(ex, refd, a.chosen)
    if per_seed:
        report += ["", "the reference's own spread across its seeds (reliably distinguished):", ""]
        report += seed_spread(per_seed, a.chosen)
    report += [""] + notes
    text = "\n".join(report)
    print(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        with open(os.path.splitext(a.out)[0] + ".json", "w", encoding="utf-8") as f:
            json.dump({"model": a.model, "rows": rows, "rounds": [r[2] for r in rounds], "expresso": ex,
                       "reference": refd, "reference_seeds": {str(sd): r for sd, r in per_seed}, "notes": notes},
                      f, indent=1, default=str)
    return 0 if not differ and not missing else 1


if __name__ == "__main__":
    sys.exit(main())

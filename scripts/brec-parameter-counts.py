#!/usr/bin/env python3
"""Trainable parameters of the models BREC's own scripts construct, beside Expresso's defaults.

Usage: brec-parameter-counts.py BREC_DIR [kp-gnn|dropgnn|ngnn-de|ngnn|ds-gnn|dss-gnn|sun|sswl-p|i2gnn|gnn-ak|graphormer|delta-k-lgnn|kc-setgnn|osan ...]

BREC_DIR is a checkout of github.com/GraphPKU/BREC. Each model is built the way its
test_BREC*.py builds it, with the flags of its test_BREC_search*.py, imported from its own
directory; nothing of BREC's is copied here. Printed per model: every trainable scalar
(sum(p.numel() for p in m.parameters() if p.requires_grad)), the scalars no input of that script
can reach (embedding rows never indexed, padding rows, projection weights fed only by them), and
the difference, which is what `expresso models` counts at the defaults (BrecParameterCountsTest).

Needs torch and torch_geometric (python3 -m venv V && V/bin/pip install torch torch_geometric).
"""
import argparse
import importlib
import importlib.machinery
import importlib.util
import os
import re
import sys
import types
from types import SimpleNamespace

import torch


class Absent(types.ModuleType):
    """Stands for a compiled package (torch_scatter, ...) that only data processing calls: building a
    model never does, and any use raises."""

    def __init__(self, name):
        super().__init__(name)
        self.__spec__ = importlib.machinery.ModuleSpec(name, None)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)

        module = self.__name__

        def absent(*args, **kwargs):
            raise RuntimeError(f"{module}.{name} is not installed: only a model's construction runs here")
        # a class, so that a module may also subclass it (SUN's Evaluator); calling it raises
        return type(name, (), {"__init__": absent})


def stub_absent(*names):
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            sys.modules[name] = Absent(name)


def trainable(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def enter(brec, directory):
    """Imports resolve inside one model's directory (each has its own layers/, models/, ...)."""
    path = os.path.join(brec, directory)
    for name in list(sys.modules):
        if name.split(".")[0] in ("layers", "models", "utils", "kernel", "modules", "conv", "models_graph_classification",
                                  "core", "src"):
            del sys.modules[name]
    sys.path.insert(0, path)
    return path


def kp_gnn(brec):
    """KP-GNN/test_BREC.py get_model with test_BREC_search.py's flags:
    --wo_path_encoding --K=8 --kernel=spd --num_layer=8 --hidden_size=32 (the rest argparse defaults)."""
    enter(brec, "KP-GNN")
    layer_utils = importlib.import_module("layers.layer_utils")
    input_encoder = importlib.import_module("layers.input_encoder")
    model_utils = importlib.import_module("models.model_utils")
    classification = importlib.import_module("models.GraphClassification")
    args = SimpleNamespace(model_name="KPGIN", hidden_size=32, K=8, eps=0.0, train_eps=False, num_hop1_edge=1,
                           max_pe_num=1000, combine="geometric", num_layer=8, JK="last", norm_type="Batch",
                           residual=False, virtual_node=False, use_rd=False, max_edge_count=1000, max_hop_num=4,
                           max_distance_count=1000, wo_peripheral_edge=False, wo_peripheral_configuration=False,
                           drop_prob=0.0, pooling_method="sum", input_size=2, output_size=16)
    layer = layer_utils.make_gnn_layer(args)
    gnn = model_utils.make_GNN(args)(
        num_layer=args.num_layer, gnn_layer=layer, JK=args.JK, norm_type=args.norm_type,
        init_emb=input_encoder.EmbeddingEncoder(args.input_size, args.hidden_size), residual=args.residual,
        virtual_node=args.virtual_node, use_rd=args.use_rd, num_hop1_edge=args.num_hop1_edge,
        max_edge_count=args.max_edge_count, max_hop_num=args.max_hop_num,
        max_distance_count=args.max_distance_count, wo_peripheral_edge=args.wo_peripheral_edge,
        wo_peripheral_configuration=args.wo_peripheral_configuration, drop_prob=args.drop_prob)
    model = classification.GraphClassification(embedding_model=gnn, pooling_method=args.pooling_method,
                                               output_size=args.output_size)
    dk = args.hidden_size // args.K
    unreachable = {}
    for name, p in model.named_parameters():
        rows = None
        if name.endswith("init_proj.init_proj.weight"):
            rows = 1  # x is the constant 1 (data.x = ones): row 0 never indexed
        elif name.endswith("hop1_edge_emb.weight"):
            rows = 2  # row 0 padding (no hop-1 edge), row 1 the self-loop type the data never carries
        elif name.endswith("hopk_edge_emb.weight"):
            rows = p.shape[0] - 1  # post_transform(wo_path_encoding) clamps every hop-k type to 2
        elif name.endswith("hopk_node_path_emb.weight"):
            rows = p.shape[0]  # wo_path_encoding sets pe_attr to 0, the padding row
        elif "peripheral_edge_embedding.embedding_list.0" in name:
            rows = p.shape[0]  # one edge type: the sorted type index is always 0, the padding row
        elif "embedding_list" in name:
            rows = 1  # count 0 is the padding row
        elif name.endswith("peripheral_edge_embedding.proj.weight"):
            unreachable[name] = dk * dk  # the columns the padding edge-type embedding feeds
        if rows is not None:
            unreachable[name] = rows * p.shape[1]
    return model, unreachable


def script_module(brec, directory, script, argv):
    """Imports a test_BREC*.py as a module, its argparse reading the search script's flags."""
    enter(brec, directory)
    saved = sys.argv
    sys.argv = [script] + argv
    try:
        name = f"brec_{directory}_{script[:-3]}".replace("-", "_")
        spec = importlib.util.spec_from_file_location(name, os.path.join(brec, directory, script))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.argv = saved


def ngnn_de(brec):
    """NestedGNN/test_BREC.py get_model with test_BREC_search_ngnnde.py's flags:
    --h=8 --layers=6 --width=128 --OUTPUT_DIM=16 --node_label=hop (NestedGIN, one-hot distances)."""
    flags = ["--h=8", "--layers=6", "--width=128", "--OUTPUT_DIM=16", "--BATCH_SIZE=32", "--LEARNING_RATE=1e-4",
             "--WEIGHT_DECAY=1e-5", "--node_label=hop", "--EPOCH=30"]
    stub_absent("torch_scatter", "torch_sparse")
    m = script_module(brec, "NestedGNN", "test_BREC.py", flags)
    return m.get_model(m.args, torch.device("cpu")), {}


def ngnn(brec):
    """NestedGNN/test_BREC.py get_model with test_BREC_search_ngnn.py's flags:
    --h=1 --layers=6 --width=16 --OUTPUT_DIM=16 --node_label=no (NestedGIN, the constant 1 as input)."""
    flags = ["--h=1", "--layers=6", "--width=16", "--OUTPUT_DIM=16", "--BATCH_SIZE=32", "--LEARNING_RATE=1e-4",
             "--WEIGHT_DECAY=1e-5", "--node_label=no"]
    stub_absent("torch_scatter", "torch_sparse")
    m = script_module(brec, "NestedGNN", "test_BREC.py", flags)
    return m.get_model(m.args, torch.device("cpu")), {}


ESAN_ABSENT = ("torch_scatter", "torch_sparse", "ogb", "ogb.graphproppred", "ogb.graphproppred.mol_encoder",
               "ogb.utils", "ogb.utils.features", "ogb.io", "ogb.lsc", "sklearn", "sklearn.model_selection",
               "matplotlib", "matplotlib.pyplot")


def esan(brec, script, flags):
    """SUN/test_BREC_ds.py and test_BREC_dss.py build their model by get_model_brec, which passes
    in_dim=1 to SUN/utils.get_model while ego_nets_plus gives three input columns (two root-marking
    ids before BRECDataset_v3's constant 1): the committed model's first Linear(1, 32) cannot take
    them. Built here with in_dim=3, the variant whose Basic results the paper reports (see
    docs/gnn-evaluation.md); --committed-in-dim shows the committed construction's failure."""
    stub_absent(*ESAN_ABSENT)
    m = script_module(brec, "SUN", script, flags)
    esan_channels(m.args)
    return m.get_model(m.args, in_dim=3, out_dim=m.OUTPUT_DIM, device=torch.device("cpu")), {}


def esan_channels(args):
    """What the scripts' main() does to --channels before building the model."""
    args.channels = list(map(int, args.channels.split("-")))
    if args.channels[0] == 0:
        args.channels = []


def ds_gnn(brec):
    """test_BREC_search_ds.py's flags."""
    return esan(brec, "test_BREC_ds.py", ["--policy=ego_nets_plus", "--model=deepsets", "--channels=64-64",
                                          "--gnn_type=originalgin", "--drop_ratio=0.0", "--jk=last", "--num_hops=6",
                                          "--num_layer=10", "--emb_dim=32", "--BATCH_SIZE=32"])


def dss_gnn(brec):
    """test_BREC_search_dss.py's flags."""
    return esan(brec, "test_BREC_dss.py", ["--policy=ego_nets_plus", "--model=dss", "--channels=64-64",
                                           "--gnn_type=originalgin", "--drop_ratio=0.0", "--jk=last", "--num_hops=6",
                                           "--num_layer=9", "--emb_dim=32", "--BATCH_SIZE=32", "--LEARNING_RATE=1e-4",
                                           "--WEIGHT_DECAY=1e-4", "--LOSS_THRESHOLD=0.01", "--EPOCH=20"])


def sun(brec):
    """test_BREC_search_sun.py's flags (SUNnetwork; the script's defaults: no transpose, no residual,
    batch norms, subgraph readout sum, MLP updates)."""
    return esan(brec, "test_BREC_sun.py", ["--policy=ego_nets_plus", "--model=sun", "--channels=64-64",
                                           "--gnn_type=originalgin", "--drop_ratio=0.0", "--jk=last", "--num_hops=6",
                                           "--num_layer=9", "--emb_dim=32", "--BATCH_SIZE=32", "--LEARNING_RATE=1e-4",
                                           "--WEIGHT_DECAY=1e-4", "--LOSS_THRESHOLD=0.01", "--EPOCH", "20"])


def committed_in_dim(brec):
    """Runs the first layer of the DS-GNN that test_BREC_ds.py builds (in_dim=1) on the three columns
    ego_nets_plus gives a 5-vertex graph's root subgraph: PyTorch refuses the product."""
    stub_absent(*ESAN_ABSENT)
    m = script_module(brec, "SUN", "test_BREC_ds.py", ["--policy=ego_nets_plus", "--model=deepsets",
                      "--channels=64-64", "--gnn_type=originalgin", "--num_hops=6", "--num_layer=10", "--emb_dim=32"])
    esan_channels(m.args)
    model = m.get_model(m.args, in_dim=1, out_dim=m.OUTPUT_DIM, device=torch.device("cpu"))
    first = model.subgraph_gnn.gnn_node.convs[0].layer.nn[0]
    x = torch.tensor([[1.0, 0.0, 1.0]] + [[0.0, 1.0, 1.0]] * 4)  # root [1, 0], others [0, 1], then x = 1
    try:
        first(x)
        print(f"committed in_dim=1: {first} took a 5x3 input")
    except RuntimeError as e:
        print(f"committed in_dim=1: {first} on ego_nets_plus's 5x3 input fails: {e}")


class OgbBondEncoder(torch.nn.Module):
    """Where ogb is not installed: ogb's BondEncoder as ogb 1.3 builds it, one Embedding(rows, dim)
    per bond feature of get_bond_feature_dims() (type 5, stereo 6, conjugated 2), each Xavier-uniform.
    Its forward is not needed: no BREC input carries edge features."""

    def __init__(self, emb_dim):
        super().__init__()
        self.bond_embedding_list = torch.nn.ModuleList(torch.nn.Embedding(rows, emb_dim) for rows in (5, 6, 2))
        for e in self.bond_embedding_list:
            torch.nn.init.xavier_uniform_(e.weight.data)

    def forward(self, edge_attr):
        raise RuntimeError("OgbBondEncoder stand-in: no edge features in BREC")


def sswl_p(brec):
    """SWL/test_BREC.py get_model with test_BREC_search.py's flags: --model=SSWL_P --max_dis=8
    --num_layer=8 --dim_embed=64 (GNN: Embedding(9, 64), 8 Agg(["uL", "vL", "vv"]) layers, the pooling
    Agg(["uG"], gin=False), Pool). Unreachable: the 16 BondEncoders (Bond adds them only to edge
    features, which BREC's graphs have none of) and the pooling layer's eps (gin=False never reads it)."""
    flags = ["--model=SSWL_P", "--max_dis=8", "--num_layer=8", "--dim_embed=64", "--BATCH_SIZE=8",
             "--LEARNING_RATE=1e-5", "--WEIGHT_DECAY=1e-5", "--SEED=100"]
    stub_absent("torch_scatter")
    try:
        importlib.import_module("ogb.graphproppred.mol_encoder")
    except ImportError:
        for name in ("ogb", "ogb.graphproppred"):
            sys.modules[name] = Absent(name)
        encoders = sys.modules["ogb.graphproppred.mol_encoder"] = Absent("ogb.graphproppred.mol_encoder")
        encoders.BondEncoder = OgbBondEncoder
    m = script_module(brec, "SWL", "test_BREC.py", flags)
    model = m.get_model(m.args, torch.device("cpu"))
    last = f"A{m.args.num_layer}."
    unreachable = {name: p.numel() for name, p in model.named_parameters()
                   if ".enc." in name or name.startswith(last + "eps.")}
    return model, unreachable


def i2gnn(brec):
    """I2GNN/test_BREC_no4v_60cfi.py get_model with test_BREC_search.py's flags:
    --h=8 --node_label=spd --layers=5 (count_models.I2GNN: 5 GatedGraphConv(32, 1) with BN, Embedding(50, 32)
    and Linear(64, 32) per layer, pooling MLPs, fc1 16, non-affine BN, fc3 16).
    Unreachable: transform_before_conv.0 (layer 0 never calls it) and the embedding rows no spd label reads:
    z = [d_i + 1, 0, d_j + 1 + h + 3, h + 3] with d_i <= h, d_j <= h + 1 reads rows 0..h+1 and h+3..2h+5."""
    flags = ["--SEED=100", "--h=8", "--node_label=spd", "--layers=5", "--BATCH_SIZE=16", "--LEARNING_RATE=1e-5",
             "--WEIGHT_DECAY=1e-4"]
    stub_absent(*ESAN_ABSENT)
    m = script_module(brec, "I2GNN", "test_BREC_no4v_60cfi.py", flags)
    model = m.get_model(m.args, torch.device("cpu"))
    h = 8
    unreachable = {}
    for name, p in model.named_parameters():
        if name.startswith("transform_before_conv.0."):
            unreachable[name] = p.numel()
        elif name.startswith("z_embedding_list."):
            read = (h + 2) + (h + 3)  # rows 0..h+1 and h+3..2h+5
            unreachable[name] = (p.shape[0] - read) * p.shape[1]
    return model, unreachable


def gnn_ak(brec):
    """GNNAsKernel/test_BREC.py get_model with the config its __main__ block loads, train/configs/BREC.yaml
    (its search script passes only --SEED), over core/config.py's defaults: 4 outer layers x 32, mini_layers 2
    of GINEConv, hops_dim 16, embs (0, 1, 2) concatenated, pool add, mlp_layers 1, no virtual node, dropout 0,
    no sampling; subgraph hops 6.
    Unreachable: of the input and edge DiscreteEncoders (10 tables of 500 rows each) all but the row the
    constant feature 1 and the single edge type 0 read; the hop embedder's rows other than hop + 1 for hop
    0..6 (every subgraph node lies within the hops); the issue's 93,468 is what is left. Then what the
    forward never calls: traditional_gnns (only used when mini_layers is 0), vn_aggregators (vn False), and
    the norms of MLPs whose last layer has no activation (MLP.forward skips them)."""
    stub_absent("torch_scatter", "torch_sparse", "torch_cluster")
    enter(brec, "GNNAsKernel")
    core_model = importlib.import_module("core.model")
    hops, nhid, hop_dim = 6, 32, 16
    model = core_model.GNNAsKernel(None, None, nhid=nhid, nout=16, nlayer_outer=4, nlayer_inner=2,
                                   gnn_types=["GINEConv"], hop_dim=hop_dim, use_normal_gnn=False, vn=False,
                                   pooling="add", embs=(0, 1, 2), embs_combine_mode="concat", mlp_layers=1,
                                   dropout=0.0, subsampling=False, online=False)
    never_applied = re.compile(r"(subgraph_layers\.\d+\.gnns\.0\.convs\.\d+\.nn\.norms\.1|subgraph_layers\.\d+"
                               r"\.gnns\.0\.output_encoder\.norms\.0|subgraph_layers\.\d+\.out_encoder\.norms\.0|"
                               r"output_decoder\.norms\.1)\.")
    unreachable = {}
    for name, p in model.named_parameters():
        if re.match(r"(input_encoder|edge_encoders\.\d+)\.embeddings\.0\.weight", name):
            unreachable[name] = (p.shape[0] - 1) * p.shape[1]
        elif re.match(r"(input_encoder|edge_encoders\.\d+)\.embeddings\.", name):
            unreachable[name] = p.numel()
        elif name.endswith(".hop_embedder.weight"):
            unreachable[name] = (p.shape[0] - (hops + 1)) * p.shape[1]
        elif name.startswith(("traditional_gnns.", "vn_aggregators.")) or never_applied.match(name):
            unreachable[name] = p.numel()
    return model, unreachable


def dropgnn(brec):
    """DropGNN/test_BREC.py get_model with test_BREC_search.py's flags (DropGIN, --augmentation dropout,
    10 layers x 16, 100 runs); n = 10 (a Basic pair's) sets only p, no parameter."""
    flags = ["--hidden_units", "16", "--num_layers", "10", "--augmentation", "dropout", "--OUTPUT_DIM=16",
             "--BATCH_SIZE=16", "--LEARNING_RATE=0.0001", "--WEIGHT_DECAY=1e-05", "--device=0", "--num_runs=100",
             "--EPOCH=100"]
    m = script_module(brec, "DropGNN", "test_BREC.py", flags)
    return m.get_model(m.args, 10, 1, torch.device("cpu")), {}


class LightningStandIn(types.ModuleType):
    """pytorch_lightning for building BREC's Graphormer: LightningModule as a plain nn.Module (its
    save_hyperparameters a no-op), LightningDataModule an empty base; nothing else is called."""

    def __init__(self):
        super().__init__("pytorch_lightning")
        self.__spec__ = importlib.machinery.ModuleSpec("pytorch_lightning", None)

        class LightningModule(torch.nn.Module):
            def save_hyperparameters(self, *args, **kwargs):
                pass

        class LightningDataModule:
            pass

        self.LightningModule = LightningModule
        self.LightningDataModule = LightningDataModule


# What BREC's Graphormer reads over the 320 pairs its part_dict runs (0-109, 160-319; counted from
# the graphs): vertex degrees and shortest-path distances. Its collator adds 1 to every index
# (0 pads), the Floyd-Warshall marks unreachable pairs 510.
GRAPHORMER_DEGREES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 17, 18]
GRAPHORMER_DISTANCES = list(range(22)) + [510]


def graphormer(brec):
    """Graphormer/graphormer/test_BREC.py get_model with test_BREC_search.py's flags: --ffn_dim 80
    --hidden_dim 80 --num_heads 8 --dropout_rate 0.0 --intput_dropout_rate 0.0 --n_layers 12
    --edge_type none (attention_dropout_rate 0.1 and the rest argparse defaults).
    Unreachable: atom rows but row 3 (x = 1, +1 by convert_to_single_emb, +1 by the collator), edge
    rows but 0 (no edge; the padding row, never trained) and 1 (an edge), degree rows but degree + 1
    (both tables read in_degree), spatial rows but distance + 1."""
    enter(brec, os.path.join("Graphormer", "graphormer"))
    sys.modules["pytorch_lightning"] = LightningStandIn()
    pyx = types.ModuleType("pyximport")  # wrapper.py installs it on import: nothing to compile here
    pyx.install = lambda *args, **kwargs: None
    sys.modules["pyximport"] = pyx
    stub_absent("ogb", "ogb.lsc", "ogb.graphproppred", "ogb.lsc.pcqm4m_pyg", "algos")
    for name in ("model", "data", "wrapper", "collator", "lr"):
        sys.modules.pop(name, None)
    model_module = importlib.import_module("model")
    model = model_module.Graphormer(
        n_layers=12, num_heads=8, hidden_dim=80, dropout_rate=0.0, intput_dropout_rate=0.0, weight_decay=0.01,
        ffn_dim=80, dataset_name="BREC", warmup_updates=60000, tot_updates=1000000, peak_lr=2e-4, end_lr=1e-9,
        edge_type="none", multi_hop_max_dist=5, attention_dropout_rate=0.1, flag=False)
    read = {"atom_encoder.weight": 1, "edge_encoder.weight": 2,
            "in_degree_encoder.weight": len(GRAPHORMER_DEGREES), "out_degree_encoder.weight": len(GRAPHORMER_DEGREES),
            "spatial_pos_encoder.weight": len(GRAPHORMER_DISTANCES)}
    unreachable = {}
    for name, p in model.named_parameters():
        if name in read:
            unreachable[name] = (p.shape[0] - read[name]) * p.shape[1]
    return model, unreachable


def delta_k_lgnn(brec):
    """SparseWL/neural_higher_order/BREC/test_BREC.py get_model: test_BREC_search.py passes only --SEED,
    so NetGIN(--dim 16). Its dataset module imports SparseWL's compiled `preprocessing`, which only
    dataset construction calls."""
    stub_absent("preprocessing")
    m = script_module(brec, os.path.join("SparseWL", "neural_higher_order", "BREC"), "test_BREC.py", ["--SEED=100"])
    return m.get_model(m.args, torch.device("cpu")), {}


def kc_setgnn(brec):
    """KCSetGNN/test_BREC.py get_model with train/configs/BREC.yaml over core/config.py's defaults (its search
    script passes only --SEED): k 3 (kmax), c 2 (num_components), stacked (k,c)(<=) sets, 4 bipartite layers of
    the Parallel kind, 2 GINEConv layers inside each connected set, width 64, pools [add], dropout 0, OUTPUT_DIM 16.
    Unreachable: of the input and edge DiscreteEncoders (10 tables of 60 rows) all but the rows the constant
    feature 1 and the edge attribute 0 read; of the two pairs of 20-row DiscreteEncoders all but the rows of the
    set sizes 0..2 (ks) and the component counts 1..2. The issue's 254,306 is what is left; it holds pos_encoder
    (192: BREC's graphs carry no positions, its forward skips it), which Expresso does not build."""
    stub_absent("torch_scatter", "torch_sparse")
    enter(brec, "KCSetGNN")
    setgnn = importlib.import_module("core.model.setgnn")
    model = setgnn.KCSetGNN(None, None, nhid=64, nout=16, nlayer_intra=2, nlayer_inter=4, gnn_type="GINEConv",
                            bgnn_type="Parallel", dropout=0.0, res=True, pools=["add"], mlp_layers=2,
                            num_bipartites=3 - 1 - 0, half_step=False)
    read = {"input_encoder.embeddings.0.weight": 1, "edge_encoder.embeddings.0.weight": 1,
            "subgraph_encoder.num_nodes_encoder.embeddings.0.weight": 3,
            "subgraph_encoder.num_components_encoder.embeddings.0.weight": 3,  # rows 0..2, rows 1 and 2 read
            "num_nodes_encoder.embeddings.0.weight": 3, "num_components_encoder.embeddings.0.weight": 3}
    unread_row_zero = {"subgraph_encoder.num_components_encoder.embeddings.0.weight",
                       "num_components_encoder.embeddings.0.weight"}
    unreachable = {}
    for name, p in model.named_parameters():
        if name in read:
            unreachable[name] = (p.shape[0] - read[name] + (1 if name in unread_row_zero else 0)) * p.shape[1]
        elif ".embeddings." in name:
            unreachable[name] = p.numel()
    return model, unreachable


class AttrDict(dict):
    """ml_collections' ConfigDict as get_model reads it: keys by attribute and by `in`."""
    __getattr__ = dict.__getitem__


def osan(brec):
    """OSAN/test_BREC.py get_model_brec (models.get_model) with configs/brec/common_configs.yaml and
    edge_del/del1_subgraph20_imle_*.yaml: OGBGNN ogb_originalgin, 8 layers x 64, brec's 16 classes, and
    the I-MLE scorer GCN_emb(1, 0, 64, 20, normalize=False, encoder=True) of the edge policy; counted as
    one model. Where ogb is not installed, ogb.utils.features stands in with ogb 1.3's feature dims
    (atom 119, 5, 12, 12, 10, 6, 6, 2, 2; bond 5, 6, 2). The script imports data.const where the
    directory is Data/: loaded from there. Unreachable: every AtomEncoder row but row 1 (x = 1), the bond
    encoder and the three edge_encoders (no edge features), and bn3/lin_node (node logits, which the
    edge policy never reads)."""
    stub_absent("torch_scatter")
    try:
        importlib.import_module("ogb.utils.features")
    except ImportError:
        for name in ("ogb", "ogb.utils"):
            sys.modules[name] = Absent(name)
        features = sys.modules["ogb.utils.features"] = types.ModuleType("ogb.utils.features")
        features.get_atom_feature_dims = lambda: [119, 5, 12, 12, 10, 6, 6, 2, 2]
        features.get_bond_feature_dims = lambda: [5, 6, 2]
    path = enter(brec, "OSAN")
    sys.modules["data"] = types.ModuleType("data")
    spec = importlib.util.spec_from_file_location("data.const", os.path.join(path, "Data", "const.py"))
    sys.modules["data.const"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sys.modules["data.const"])
    get_model = importlib.import_module("models.get_model").get_model
    args = AttrDict(model="ogb_originalgin", dataset="brec", hid_size=64, dropout=0.0, num_convlayers=8,
                    imle_configs=AttrDict(norm_logits=False, embd_lr=1e-3, beta=10.0, aux_loss_weight=1.0),
                    sample_configs=AttrDict(sample_policy="edge", sample_k=-1, num_subgraphs=20))
    model, emb_model = get_model(args, None)
    both = torch.nn.ModuleDict({"model": model, "emb": emb_model})
    # by module, not name: GCN_emb registers its layers twice (as attributes and in self.layers)
    never = [emb_model.bond_encoder, emb_model.bn3, emb_model.lin_node,
             emb_model.conv1.edge_encoder, emb_model.conv2.edge_encoder, emb_model.conv3.edge_encoder]
    never_ids = {id(p) for module in never for p in module.parameters()}
    unreachable = {}
    for name, p in both.named_parameters():
        if name.endswith("atom_embedding_list.0.weight"):
            unreachable[name] = (p.shape[0] - 1) * p.shape[1]
        elif ".atom_embedding_list." in name or id(p) in never_ids:
            unreachable[name] = p.numel()
    return both, unreachable


MODELS = {"osan": osan, "kp-gnn": kp_gnn, "dropgnn": dropgnn, "ngnn-de": ngnn_de, "ngnn": ngnn, "ds-gnn": ds_gnn, "dss-gnn": dss_gnn, "sun": sun, "sswl-p": sswl_p,
          "i2gnn": i2gnn,
          "gnn-ak": gnn_ak, "graphormer": graphormer, "delta-k-lgnn": delta_k_lgnn,
          "kc-setgnn": kc_setgnn}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("brec", help="a checkout of GraphPKU/BREC")
    parser.add_argument("models", nargs="*", default=list(MODELS), help="models to count (default: all)")
    parser.add_argument("--detail", action="store_true", help="list every parameter tensor")
    parser.add_argument("--committed-in-dim", action="store_true",
                        help="show that SUN's committed DS-GNN (in_dim=1) fails on ego_nets_plus's inputs")
    a = parser.parse_args()
    if a.committed_in_dim:
        committed_in_dim(os.path.abspath(a.brec))
        return
    torch.manual_seed(0)
    print(f"{'model':10} {'trainable':>10} {'unreachable':>12} {'reachable':>10}")
    for name in a.models:
        model, unreachable = MODELS[name](os.path.abspath(a.brec))
        total = trainable(model)
        dead = sum(unreachable.values())
        print(f"{name:10} {total:10d} {dead:12d} {total - dead:10d}")
        if a.detail:
            for n, p in model.named_parameters():
                if p.requires_grad:
                    print(f"    {n:60} {str(tuple(p.shape)):18} {p.numel():7d} unreachable {unreachable.get(n, 0)}")


if __name__ == "__main__":
    main()

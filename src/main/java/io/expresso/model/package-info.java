/**
 * Graph neural networks as DJL blocks (PyTorch engine): GIN, PPGN, DE+NGNN and the top of BREC's
 * Table 2 (GSN, DS-GNN, DSS-GNN, KP-GNN, I²-GNN) behind one
 * interface ({@link io.expresso.model.GraphModel}: a batch of graphs in, a B×d embedding or a B
 * scalar out), the {@link io.expresso.model.ModelSpec} that names a configuration, device parsing,
 * checkpoints and parameter counts. Models are built only from a spec, never from a class name.
 */
package io.expresso.model;

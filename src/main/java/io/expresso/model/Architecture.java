package io.expresso.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The GNN architectures Expresso can train, by their command-line names. */
public enum Architecture {
  /** Graph isomorphism network (sum aggregation, MLPs with batch norm): bounded by 1-WL. */
  GIN("gin"),
  /** Provably powerful graph network (Maron et al. 2019): dense n×n tensors, as strong as 3-WL. */
  PPGN("ppgn"),
  /** Nested GNN with distance encoding: an inner GIN on every rooted k-hop subgraph. */
  NGNN_DE("ngnn-de"),
  /** GSN-e: messages see exact induced counts of every connected 3- and 4-vertex graph per edge orbit. */
  GSN("gsn"),
  /** DS-GNN (ESAN): a GIN on every root-marked ego-net subgraph, DeepSets over the subgraphs. */
  DS_GNN("ds-gnn"),
  /** DSS-GNN (ESAN): as DS-GNN, every layer also mixing each vertex's copies across subgraphs. */
  DSS_GNN("dss-gnn"),
  /** KP-GNN (KP-GIN): per hop k up to K, the vertices at distance k and their peripheral subgraph. */
  KP_GNN("kp-gnn"),
  /** I²-GNN: per root and neighbour, the k-hop subgraph with both marked (the count regressor's network, embedding out). */
  I2GNN("i2gnn");

  private final String cliName;

  Architecture(String cliName) {
    this.cliName = cliName;
  }

  public String cliName() {
    return cliName;
  }

  /** The architecture with this command-line name (case-insensitive). */
  public static Architecture byName(String name) {
    for (Architecture a : values()) {
      if (a.cliName.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown model '" + name + "'; expected one of "
        + Arrays.stream(values()).map(Architecture::cliName).collect(Collectors.joining(", ")));
  }
}

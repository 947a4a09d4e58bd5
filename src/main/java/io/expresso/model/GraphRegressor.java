package io.expresso.model;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.nn.Block;
import io.expresso.graph.Graph;
import java.util.List;

/**
 * A network that maps a batch of graphs to one real number per graph (a pattern count), split so
 * a trainer can treat any architecture alike: {@link #inputs} turns graphs into tensors,
 * {@link #block()} maps them to shape (B), and {@link #head()} is the final MLP, the only part
 * retrained in the out-of-distribution study of Campi et al. §6.2.
 */
public interface GraphRegressor {

  /** Architecture name as reports print it, e.g. {@code i2gnn}. */
  String name();

  /** The whole network: {@link #inputs} → predictions of shape (B). */
  Block block();

  /** The final MLP inside {@link #block()}. */
  Block head();

  /** Tensors for {@code graphs}, created on {@code manager}. */
  NDList inputs(NDManager manager, List<Graph> graphs);

  /** Input shapes for a typical batch, to initialise parameters. */
  ai.djl.ndarray.types.Shape[] inputShapes(NDManager manager);
}

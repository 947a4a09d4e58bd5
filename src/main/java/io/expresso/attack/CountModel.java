package io.expresso.attack;

import io.expresso.graph.Graph;
import java.util.List;

/** A model that predicts the count of a pattern; called in batches so a GNN scores many graphs at once. */
@FunctionalInterface
public interface CountModel {

  /** One prediction per graph, in order. */
  double[] predict(List<Graph> graphs);
}

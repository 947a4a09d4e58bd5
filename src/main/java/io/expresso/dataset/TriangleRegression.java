package io.expresso.dataset;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.count.RandomGraphs;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.graph.LabeledGraph;
import java.util.ArrayList;
import java.util.List;

/**
 * A generated regression dataset ({@code regress[:seed=N]}): {@value #GRAPHS} Erdős–Rényi graphs
 * G(n, p), n in [8, 16], p in [0.1, 0.4], each with its exact triangle count
 * ({@link InducedCounts}) as the target — a structural quantity a message-passing model
 * approximates from degrees well below the error of predicting the mean (1-WL cannot count
 * triangles exactly). Everything follows from the seed (SplitMix64).
 */
public final class TriangleRegression {

  public static final int GRAPHS = 300;

  private TriangleRegression() {}

  public static GraphDataset build(String name, long seed) {
    return build(name, seed, GRAPHS);
  }

  public static GraphDataset build(String name, long seed, int count) {
    SplitMix64 rnd = new SplitMix64(seed);
    List<LabeledGraph> graphs = new ArrayList<>(count);
    double[] targets = new double[count];
    for (int i = 0; i < count; i++) {
      int n = 8 + rnd.nextInt(9);
      double p = 0.1 + 0.3 * rnd.nextDouble();
      Graph g = RandomGraphs.erdosRenyi(n, p, rnd.nextLong());
      graphs.add(LabeledGraph.unlabeled(g));
      targets[i] = InducedCounts.count(g, Pattern.TRIANGLE);
    }
    return GraphDataset.regression(name, graphs, targets);
  }
}

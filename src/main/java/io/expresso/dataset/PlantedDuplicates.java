package io.expresso.dataset;

import io.expresso.count.RandomGraphs;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.graph.LabeledGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A generated two-class dataset with the flaw Ivanov et al. found in TU datasets: isomorphic
 * duplicates, some carrying conflicting labels. {@code base} Erdős–Rényi graphs G(n, p), n in
 * [10, 18], p in [0.15, 0.45]; class 1 when the edge count is above the median (a sum a GIN read-out
 * can learn), then each label
 * flipped with probability {@code noise} (so no model generalises to 100%). A fraction
 * {@code duplicated} of the base graphs get 1–3 extra copies, each under a random vertex order; a
 * fraction {@code conflicting} of those duplicated graphs have one copy with the other label.
 * Everything follows from the seed (SplitMix64). Copies are interleaved at random positions.
 */
public final class PlantedDuplicates {

  /** The defaults documented in docs/datasets.md. */
  public static final int BASE = 400;
  public static final double NOISE = 0.2;
  public static final double DUPLICATED = 0.4;
  public static final double CONFLICTING = 0.25;

  private PlantedDuplicates() {}

  public static GraphDataset build(String name, long seed) {
    return build(name, seed, BASE, NOISE, DUPLICATED, CONFLICTING);
  }

  public static GraphDataset build(String name, long seed, int base, double noise, double duplicated, double conflicting) {
    SplitMix64 rnd = new SplitMix64(seed);
    Graph[] graphs = new Graph[base];
    double[] edges = new double[base];
    for (int i = 0; i < base; i++) {
      int n = 10 + rnd.nextInt(9);
      double p = 0.15 + 0.3 * rnd.nextDouble();
      graphs[i] = RandomGraphs.erdosRenyi(n, p, rnd.nextLong());
      edges[i] = graphs[i].m();
    }
    double[] sorted = edges.clone();
    Arrays.sort(sorted);
    double median = sorted[base / 2];
    int[] label = new int[base];
    for (int i = 0; i < base; i++) {
      label[i] = edges[i] > median ? 1 : 0;
      if (rnd.nextDouble() < noise) {
        label[i] = 1 - label[i];
      }
    }
    List<Graph> all = new ArrayList<>();
    List<Integer> labels = new ArrayList<>();
    for (int i = 0; i < base; i++) {
      all.add(graphs[i]);
      labels.add(label[i]);
      if (rnd.nextDouble() < duplicated) {
        int copies = 1 + rnd.nextInt(3);
        boolean conflict = rnd.nextDouble() < conflicting;
        for (int c = 0; c < copies; c++) {
          all.add(graphs[i].relabel(rnd.permutation(graphs[i].n())));
          labels.add(conflict && c == 0 ? 1 - label[i] : label[i]);
        }
      }
    }
    int[] order = rnd.permutation(all.size());
    List<LabeledGraph> shuffled = new ArrayList<>(all.size());
    int[] y = new int[all.size()];
    for (int k = 0; k < order.length; k++) {
      shuffled.add(LabeledGraph.unlabeled(all.get(order[k])));
      y[k] = labels.get(order[k]);
    }
    return new GraphDataset(name, shuffled, y, List.of("0", "1"));
  }
}

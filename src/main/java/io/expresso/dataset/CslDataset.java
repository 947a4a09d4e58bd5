package io.expresso.dataset;

import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.graph.LabeledGraph;
import io.expresso.suite.Constructions;
import java.util.ArrayList;
import java.util.List;

/**
 * The CSL dataset (Murphy et al. 2019; Dwivedi et al. A.6): 150 graphs, 15 per class, class C the
 * circular skip link graph G(41, C) for C in {2, 3, 4, 5, 6, 9, 11, 12, 13, 16} — the built-in
 * suite's construction ({@link Constructions#csl}) — each copy under a seeded random vertex order, so
 * a model that keys on vertex indices learns nothing. All 150 graphs are 4-regular: 1-WL, and so
 * every message-passing GNN without positional information, sees one graph.
 */
public final class CslDataset {

  public static final int VERTICES = 41;
  public static final int PER_CLASS = 15;

  private CslDataset() {}

  public static GraphDataset build(String name, long seed) {
    SplitMix64 rnd = new SplitMix64(seed);
    List<LabeledGraph> graphs = new ArrayList<>();
    List<String> classes = new ArrayList<>();
    int[] labels = new int[Constructions.CSL_SKIPS.length * PER_CLASS];
    for (int c = 0; c < Constructions.CSL_SKIPS.length; c++) {
      int skip = Constructions.CSL_SKIPS[c];
      classes.add("C" + skip);
      Graph g = Constructions.csl(VERTICES, skip);
      for (int k = 0; k < PER_CLASS; k++) {
        labels[graphs.size()] = c;
        graphs.add(LabeledGraph.unlabeled(g.relabel(rnd.permutation(VERTICES))));
      }
    }
    return new GraphDataset(name, graphs, labels, classes);
  }
}

package io.expresso.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.graph.LabeledGraph;
import io.expresso.graph.TuDataset;
import io.expresso.iso.Leakage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Regression targets (generated and TU graph attributes), plain folds, and node labels as dataset data. */
class DatasetTargetsTest {

  @Test
  void regressIsSeededGraphsWithTheirExactTriangleCounts() throws Exception {
    GraphDataset d = DatasetSpecs.load("regress");
    assertThat(d.regression()).isTrue();
    assertThat(d.size()).isEqualTo(TriangleRegression.GRAPHS);
    assertThat(d.classes()).isZero();
    assertThat(d.labels()).isNull();
    for (int i = 0; i < d.size(); i++) {
      Graph g = d.graphs().get(i).graph();
      assertThat(d.targets()[i]).isEqualTo((double) InducedCounts.count(g, Pattern.TRIANGLE));
      assertThat(g.n()).isBetween(8, 16);
    }
    assertThat(new HashSet<>(java.util.Arrays.stream(d.targets()).boxed().toList())).hasSizeGreaterThan(10);
    assertThat(DatasetSpecs.load("regress").targets()).containsExactly(d.targets());
    assertThat(DatasetSpecs.load("regress:seed=1").targets()).isNotEqualTo(d.targets());
    assertThat(d.nodeLabelCount()).isZero();
    assertThat(d.usesNodeLabels()).isFalse();
  }

  @Test
  void plainFoldsAreDisjointBalancedInSizeAndTestEveryGraphOnce() {
    int[] tested = new int[103];
    for (int f = 0; f < 5; f++) {
      Folds.Fold fold = Folds.plain(103, 5, f, 9);
      Set<Integer> seen = new HashSet<>();
      for (int[] part : List.of(fold.train(), fold.validation(), fold.test())) {
        for (int i : part) {
          assertThat(seen.add(i)).isTrue();
        }
      }
      assertThat(seen).hasSize(103);
      assertThat(fold.test().length).isBetween(20, 21);
      assertThat(fold.validation().length).isBetween(20, 21);
      for (int i : fold.test()) {
        tested[i]++;
      }
    }
    assertThat(tested).containsOnly(1);
    assertThat(Folds.plain(103, 5, 2, 9)).usingRecursiveComparison().isEqualTo(Folds.plain(103, 5, 2, 9));
    assertThat(Folds.plain(103, 5, 2, 9).test()).isNotEqualTo(Folds.plain(103, 5, 2, 10).test());
    assertThatThrownBy(() -> Folds.plain(10, 2, 0, 0)).hasMessageContaining("k >= 3");
  }

  @Test
  void aTuDirectoryWithGraphAttributesRoundTripsAsARegressionDataset(@TempDir Path dir) throws Exception {
    GraphDataset regress = DatasetSpecs.load("regress");
    TuDataset.write(dir.resolve("TRI"), "TRI", regress.graphs(), regress.targets());
    GraphDataset tu = DatasetSpecs.load("tu:" + dir.resolve("TRI"));
    assertThat(tu.regression()).isTrue();
    assertThat(tu.targets()).containsExactly(regress.targets());
    for (int i = 0; i < regress.size(); i++) {
      assertThat(tu.graphs().get(i).graph()).isEqualTo(regress.graphs().get(i).graph());
    }
    // non-integral targets keep every digit
    double[] reals = new double[regress.size()];
    for (int i = 0; i < reals.length; i++) {
      reals[i] = regress.targets()[i] / 7.0 - 0.1;
    }
    TuDataset.write(dir.resolve("REAL"), "REAL", regress.graphs(), reals);
    assertThat(DatasetSpecs.load("tu:" + dir.resolve("REAL")).targets()).containsExactly(reals);
    // the clean version keeps one graph per orbit whose targets agree
    GraphDataset clean = DatasetSpecs.load("clean:tu:" + dir.resolve("TRI"));
    assertThat(clean.regression()).isTrue();
    assertThat(clean.size()).isLessThanOrEqualTo(regress.size()).isPositive();
  }

  @Test
  void labelsOrAttributesIsTheSpecsChoiceWhenADirectoryHasBoth(@TempDir Path dir) throws Exception {
    GraphDataset regress = DatasetSpecs.load("regress");
    List<LabeledGraph> graphs = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      graphs.add(new LabeledGraph(regress.graphs().get(i).graph(), null, null, i % 2));
    }
    double[] targets = java.util.Arrays.copyOf(regress.targets(), 30);
    Path both = dir.resolve("BOTH");
    TuDataset.write(both, "BOTH", graphs, targets);
    assertThatThrownBy(() -> DatasetSpecs.load("tu:" + both))
        .hasMessageContaining("has both BOTH_graph_labels.txt and BOTH_graph_attributes.txt")
        .hasMessageContaining("target=labels").hasMessageContaining("target=attributes");
    assertThat(DatasetSpecs.load("tu:" + both + ",target=labels").regression()).isFalse();
    assertThat(DatasetSpecs.load("tu:" + both + ",target=attributes").targets()).containsExactly(targets);
    Files.delete(both.resolve("BOTH_graph_attributes.txt"));
    assertThatThrownBy(() -> DatasetSpecs.load("tu:" + both + ",target=attributes"))
        .hasMessageContaining("target=attributes but there is no BOTH_graph_attributes.txt");
    Files.delete(both.resolve("BOTH_graph_labels.txt"));
    assertThatThrownBy(() -> DatasetSpecs.load("tu:" + both))
        .hasMessageContaining("neither BOTH_graph_labels.txt (classes) nor BOTH_graph_attributes.txt");
  }

  @Test
  void badAttributeFilesNameTheFileAndLine(@TempDir Path dir) throws Exception {
    GraphDataset regress = DatasetSpecs.load("regress");
    Path tu = dir.resolve("TRI");
    TuDataset.write(tu, "TRI", regress.graphs().subList(0, 5), java.util.Arrays.copyOf(regress.targets(), 5));
    Path file = tu.resolve("TRI_graph_attributes.txt");
    Files.writeString(file, "1.0\n2.0\n3.0, 4.0\n4.0\n5.0\n");
    assertThatThrownBy(() -> DatasetSpecs.load("tu:" + tu))
        .hasMessage("TRI_graph_attributes.txt line 3: expected one real number (the graph's target), found 2 values");
    Files.writeString(file, "1.0\n2.0\nNaN\n4.0\n5.0\n");
    assertThatThrownBy(() -> DatasetSpecs.load("tu:" + tu))
        .hasMessage("TRI_graph_attributes.txt line 3: the target NaN is not a finite number");
    Files.writeString(file, "1.0\n\n3.0\n4.0\n5.0\n");
    assertThatThrownBy(() -> DatasetSpecs.load("tu:" + tu))
        .hasMessage("TRI_graph_attributes.txt line 2: blank line inside the file");
    Files.writeString(file, "1.0\n2.0\n3.0\n4.0\n");
    assertThatThrownBy(() -> DatasetSpecs.load("tu:" + tu))
        .hasMessage("TRI_graph_attributes.txt line 5: missing, 4 values for 5 graphs (TRI_graph_indicator.txt)");
  }

  @Test
  void tuOptionsAreCheckedBeforeAnythingIsRead() {
    DatasetSpecs.checkForm("tu:data/MUTAG,node-labels=false");
    DatasetSpecs.checkForm("clean:tu:data/ZINC,target=attributes,node-labels=true");
    DatasetSpecs.checkForm("regress:seed=4");
    assertThatThrownBy(() -> DatasetSpecs.checkForm("tu:data/MUTAG,node-labels=maybe"))
        .hasMessageContaining("node-labels must be true or false, got 'maybe'");
    assertThatThrownBy(() -> DatasetSpecs.checkForm("tu:data/MUTAG,target=classes"))
        .hasMessageContaining("target must be labels (classification) or attributes (regression)");
    assertThatThrownBy(() -> DatasetSpecs.checkForm("tu:data/MUTAG,colour=red"))
        .hasMessageContaining("unknown tu: option 'colour=red'");
    assertThatThrownBy(() -> DatasetSpecs.checkForm("tu:,node-labels=false"))
        .hasMessageContaining("tu: needs a directory");
  }

  @Test
  void nodeLabelsMapToIndicesOfTheDatasetsSortedDistinctValues(@TempDir Path dir) throws Exception {
    Graph p3 = Graph.fromEdges(3, 0, 1, 1, 2);
    List<LabeledGraph> graphs = List.of(
        new LabeledGraph(p3, new int[] {7, 3, 3}, null, 0),
        new LabeledGraph(p3, new int[] {-1, 7, 3}, null, 1),
        new LabeledGraph(p3, new int[] {3, 3, 3}, null, 0),
        new LabeledGraph(p3, new int[] {7, 7, 7}, null, 1));
    TuDataset.write(dir.resolve("NL"), "NL", graphs);
    GraphDataset d = DatasetSpecs.load("tu:" + dir.resolve("NL"));
    assertThat(d.nodeLabelValues()).containsExactly(-1, 3, 7);
    assertThat(d.nodeLabelCount()).isEqualTo(3);
    assertThat(d.usesNodeLabels()).isTrue();
    assertThat(d.nodeLabelIndices(new int[] {1, 0})).containsExactly(new int[] {0, 2, 1}, new int[] {2, 1, 1});
    GraphDataset off = DatasetSpecs.load("tu:" + dir.resolve("NL") + ",node-labels=false");
    assertThat(off.nodeLabelCount()).isEqualTo(3);
    assertThat(off.usesNodeLabels()).isFalse();
    // isomorphism keeps using the labels either way: graphs 2 and 3 differ only by label
    Leakage.Report r = Copies.of(off, new int[] {0, 2}, new int[] {1, 3});
    assertThat(r.leakedTest()).isEmpty();
  }
}

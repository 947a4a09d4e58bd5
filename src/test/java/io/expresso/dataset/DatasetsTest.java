package io.expresso.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.graph.LabeledGraph;
import io.expresso.graph.TuDataset;
import io.expresso.iso.Certificate;
import io.expresso.iso.Leakage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetsTest {

  @Test
  void cslHas15RelabelledCopiesOfTenPairwiseNonIsomorphicFourRegularGraphs() throws Exception {
    GraphDataset csl = DatasetSpecs.load("csl");
    assertThat(csl.size()).isEqualTo(150);
    assertThat(csl.classes()).isEqualTo(10);
    Map<Integer, Set<Certificate>> byClass = new HashMap<>();
    Set<Graph> distinctLabellings = new HashSet<>();
    for (int i = 0; i < csl.size(); i++) {
      Graph g = csl.graphs().get(i).graph();
      assertThat(g.n()).isEqualTo(41);
      assertThat(g.isRegular()).isTrue();
      assertThat(g.maxDegree()).isEqualTo(4);
      byClass.computeIfAbsent(csl.labels()[i], k -> new HashSet<>()).add(csl.coloured(i).certificate());
      distinctLabellings.add(g);
    }
    Set<Certificate> all = new HashSet<>();
    for (Set<Certificate> c : byClass.values()) {
      assertThat(c).hasSize(1); // one isomorphism class per label
      all.addAll(c);
    }
    assertThat(all).hasSize(10);
    assertThat(distinctLabellings.size()).isGreaterThan(140); // copies are relabelled, not repeated
    assertThat(DatasetSpecs.load("csl:seed=3").graphs().get(0).graph()).isNotEqualTo(csl.graphs().get(0).graph());
  }

  @Test
  void foldsAreStratifiedDisjointAndTestEveryGraphOnce() throws Exception {
    GraphDataset csl = DatasetSpecs.load("csl");
    int[] tested = new int[csl.size()];
    for (int f = 0; f < 5; f++) {
      Folds.Fold fold = Folds.fold(csl.labels(), csl.classes(), 5, f, 0);
      assertThat(fold.train()).hasSize(90);
      assertThat(fold.validation()).hasSize(30);
      assertThat(fold.test()).hasSize(30);
      Set<Integer> seen = new HashSet<>();
      for (int[] part : List.of(fold.train(), fold.validation(), fold.test())) {
        int[] perClass = new int[10];
        for (int i : part) {
          assertThat(seen.add(i)).isTrue();
          perClass[csl.labels()[i]]++;
        }
        assertThat(perClass).containsOnly(part.length / 10);
      }
      for (int i : fold.test()) {
        tested[i]++;
      }
    }
    assertThat(tested).containsOnly(1);
    assertThat(Folds.fold(csl.labels(), 10, 5, 2, 0)).usingRecursiveComparison()
        .isEqualTo(Folds.fold(csl.labels(), 10, 5, 2, 0));
  }

  @Test
  void plantedDuplicatesCarryConflictingLabelsAndTheCleanVersionDropsThem() throws Exception {
    GraphDataset raw = DatasetSpecs.load("planted:seed=1");
    GraphDataset clean = DatasetSpecs.load("clean:planted:seed=1");
    Map<Certificate, Set<Integer>> labelsByClass = new HashMap<>();
    for (int i = 0; i < raw.size(); i++) {
      labelsByClass.computeIfAbsent(raw.coloured(i).certificate(), k -> new HashSet<>()).add(raw.labels()[i]);
    }
    long conflicting = labelsByClass.values().stream().filter(s -> s.size() > 1).count();
    assertThat(raw.size()).isGreaterThan(labelsByClass.size()); // duplicates were planted
    assertThat(conflicting).isGreaterThan(0);
    // clean: one graph per consistent isomorphism class, none of the conflicting ones
    assertThat(clean.size()).isEqualTo(labelsByClass.size() - conflicting);
    Set<Certificate> cleanClasses = new HashSet<>();
    for (int i = 0; i < clean.size(); i++) {
      Certificate c = clean.coloured(i).certificate();
      assertThat(cleanClasses.add(c)).isTrue();
      assertThat(labelsByClass.get(c)).containsExactly(clean.labels()[i]);
    }
  }

  @Test
  void copiesAreTheTestGraphsIsomorphicToATrainingGraph() throws Exception {
    GraphDataset raw = DatasetSpecs.load("planted:seed=1");
    Folds.Fold fold = Folds.fold(raw.labels(), raw.classes(), 5, 0, 0);
    Leakage.Report r = Copies.of(raw, fold.train(), fold.test());
    Set<Certificate> train = new HashSet<>();
    for (int i : fold.train()) {
      train.add(raw.coloured(i).certificate());
    }
    assertThat(r.leakedTest().length).isGreaterThan(0);
    assertThat(r.leakedTest().length + r.cleanTest().length).isEqualTo(fold.test().length);
    for (int i : r.leakedTest()) {
      assertThat(train).contains(raw.coloured(i).certificate());
    }
    for (int i : r.cleanTest()) {
      assertThat(train).doesNotContain(raw.coloured(i).certificate());
    }
    GraphDataset clean = DatasetSpecs.load("clean:planted:seed=1");
    Folds.Fold cleanFold = Folds.fold(clean.labels(), clean.classes(), 5, 0, 0);
    assertThat(Copies.of(clean, cleanFold.train(), cleanFold.test()).leakedTest()).isEmpty();
  }

  @Test
  void aTuDatasetOnDiskLoadsWithItsLabelsAndCleans(@TempDir Path dir) throws Exception {
    GraphDataset planted = DatasetSpecs.load("planted:seed=2");
    List<LabeledGraph> graphs = new ArrayList<>();
    for (int i = 0; i < planted.size(); i++) {
      graphs.add(new LabeledGraph(planted.graphs().get(i).graph(), null, null, planted.labels()[i] == 0 ? -1 : 1));
    }
    TuDataset.write(dir, "PLANTED", graphs);
    GraphDataset tu = DatasetSpecs.load("tu:" + dir.resolve("PLANTED"));
    assertThat(tu.classNames()).containsExactly("-1", "1");
    assertThat(tu.labels()).containsExactly(planted.labels());
    assertThat(DatasetSpecs.load("clean:tu:" + dir.resolve("PLANTED")).size())
        .isEqualTo(DatasetSpecs.load("clean:planted:seed=2").size());
  }

  @Test
  void badSpecsAreNamed() {
    assertThatThrownBy(() -> DatasetSpecs.load("mutag")).hasMessageContaining("unknown dataset 'mutag'");
    assertThatThrownBy(() -> DatasetSpecs.load("csl:seed=x")).hasMessageContaining("seed is not a whole number");
    assertThatThrownBy(() -> DatasetSpecs.load("tu:/nonexistent/MUTAG")).hasMessageContaining("MUTAG_A.txt");
  }
}

package io.expresso.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Components;
import io.expresso.graph.Graph;
import io.expresso.graph.GraphProperties;
import io.expresso.iso.Isomorphism;
import io.expresso.wl.PairDistinguisher;
import io.expresso.wl.WlMethods;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class BuiltinSuiteTest {

  static Suite suite;

  @BeforeAll
  static void load() {
    suite = SuiteSpecs.load("builtin");
  }

  @Test
  void categoriesInOrderWithDenseIndices() {
    assertThat(suite.id()).isEqualTo("builtin");
    assertThat(suite.categories()).extracting(Category::name).containsExactly(
        BuiltinSuite.NON_REGULAR, BuiltinSuite.SIMPLE_REGULAR, BuiltinSuite.STRONGLY_REGULAR,
        BuiltinSuite.CSL, BuiltinSuite.CFI);
    assertThat(suite.categories()).extracting(c -> c.pairs().size()).containsExactly(18, 21, 10, 45, 5);
    List<GraphPair> pairs = suite.pairs().toList();
    for (int i = 0; i < pairs.size(); i++) {
      assertThat(pairs.get(i).index()).isEqualTo(i);
      assertThat(pairs.get(i).relabelings()).isNull();
    }
  }

  @Test
  void everyPairIsNonIsomorphicAndOneWlEquivalent() {
    PairDistinguisher oneWl = WlMethods.byName("1-wl");
    suite.pairs().forEach(p -> {
      assertThat(Isomorphism.isomorphic(p.first(), p.second())).as("pair %d", p.index()).isFalse();
      assertThat(oneWl.distinguishes(p.first(), p.second())).as("pair %d", p.index()).isFalse();
      assertThat(p.first().n()).isEqualTo(p.second().n());
      assertThat(p.first().m()).isEqualTo(p.second().m());
    });
  }

  @Test
  void categoriesHoldWhatTheirNamesSay() {
    for (Category c : suite.categories()) {
      for (GraphPair p : c.pairs()) {
        boolean regular = p.first().isRegular() && p.second().isRegular();
        switch (c.name()) {
          case BuiltinSuite.NON_REGULAR -> {
            assertThat(p.first().isRegular() || p.second().isRegular()).isFalse();
            assertThat(Components.isConnected(p.first()) && Components.isConnected(p.second())).isTrue();
          }
          case BuiltinSuite.SIMPLE_REGULAR, BuiltinSuite.CSL -> {
            assertThat(regular).isTrue();
            assertThat(p.first().maxDegree()).isEqualTo(p.second().maxDegree());
          }
          case BuiltinSuite.STRONGLY_REGULAR -> {
            int[] a = GraphProperties.stronglyRegularParameters(p.first());
            assertThat(a).isNotNull().isEqualTo(GraphProperties.stronglyRegularParameters(p.second()));
          }
          default -> { }
        }
      }
    }
  }

  @Test
  void threeWlSeparatesExactlyWhatTheTheorySays() {
    PairDistinguisher threeWl = WlMethods.byName("3-wl");
    Map<String, Integer> separated = new HashMap<>();
    List<Integer> cfiSeparated = new ArrayList<>();
    for (Category c : suite.categories()) {
      int k = 0;
      for (GraphPair p : c.pairs()) {
        if (threeWl.distinguishes(p.first(), p.second())) {
          k++;
          if (c.name().equals(BuiltinSuite.CFI)) {
            cfiSeparated.add(p.index() - c.pairs().get(0).index());
          }
        }
      }
      separated.put(c.name(), k);
    }
    assertThat(separated).containsEntry(BuiltinSuite.NON_REGULAR, 18).containsEntry(BuiltinSuite.SIMPLE_REGULAR, 21)
        .containsEntry(BuiltinSuite.STRONGLY_REGULAR, 0).containsEntry(BuiltinSuite.CSL, 45);
    // CFI bases: C_5 and the diamond (treewidth 2) are separated; K_4, prism, K_{3,3} (treewidth 3) not.
    assertThat(cfiSeparated).containsExactly(0, 1);
  }

  @Test
  void nonRegularCategoryHasEveryOneWlClassOfTheEnumeration() {
    // Independent of the hashed bucketing: exact pairwise 1-WL within groups of equal degree sequence.
    PairDistinguisher oneWl = WlMethods.byName("1-wl");
    int expected = 0;
    for (int n = 6; n <= 7; n++) {
      Map<String, List<Graph>> byDegrees = new HashMap<>();
      for (Graph g : SmallGraphs.all(n)) {
        if (!g.isRegular() && Components.isConnected(g)) {
          int[] d = new int[n];
          Arrays.setAll(d, g::degree);
          Arrays.sort(d);
          byDegrees.computeIfAbsent(Arrays.toString(d), k -> new ArrayList<>()).add(g);
        }
      }
      for (List<Graph> group : byDegrees.values()) {
        // Count graphs minus classes: a class of k graphs yields k - 1 pairs.
        List<Graph> left = new ArrayList<>(group);
        while (!left.isEmpty()) {
          Graph first = left.remove(0);
          List<Graph> rest = new ArrayList<>();
          for (Graph g : left) {
            if (oneWl.distinguishes(first, g)) {
              rest.add(g);
            } else {
              expected++;
            }
          }
          left = rest;
        }
      }
    }
    assertThat(suite.categories().get(0).pairs()).hasSize(expected);
  }

  @Test
  void generationIsDeterministic() {
    Suite again = BuiltinSuite.build();
    assertThat(again.pairs().toList()).isEqualTo(suite.pairs().toList());
  }
}

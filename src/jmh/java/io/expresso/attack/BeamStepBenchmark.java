package io.expresso.attack;

import io.expresso.count.Pattern;
import io.expresso.count.RandomGraphs;
import io.expresso.graph.Graph;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The search's own cost per attack step, with a model that costs nothing: one greedy step on a
 * 30-node paper SBM graph expands all 435 flips (space check, exact count update, materialising
 * each candidate as an immutable Graph) and ranks them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BeamStepBenchmark {

  @Param({"ANY", "COUNT_PRESERVING", "SUBGRAPH_PRESERVING"})
  public String space;

  private Graph graph;
  private BeamSearchAttack attack;
  private final CountModel free = graphs -> new double[graphs.size()];

  @Setup
  public void setUp() {
    graph = RandomGraphs.paperSbm(1);
    // the clean prediction 0 must round to the count: use the 4-clique count of a graph with none
    Graph g = graph;
    for (long s = 1; io.expresso.count.InducedCounts.count(g, Pattern.FOUR_CLIQUE) != 0; s++) {
      g = RandomGraphs.paperSbm(s);
    }
    graph = g;
    attack = new BeamSearchAttack(new AttackConfig(Pattern.FOUR_CLIQUE, PerturbationSpace.valueOf(space), 1, 1, 0,
        AdversarialRule.paper(), 0));
  }

  @Benchmark
  public AttackResult oneGreedyStep() {
    return attack.attack(graph, free);
  }
}

package io.expresso.count;

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
 * The exact count after one edge flip on the paper's 30-node SBM graphs (three communities of 10,
 * p_in 0.2/0.3/0.4, p_out 0.1): delta counting versus the ego-net recount, and a full recount for
 * scale. Each call takes the next of 4096 pre-drawn (graph, pair) flips over 64 graphs, additions
 * and deletions as they come.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FlipUpdateBenchmark {

  private static final int GRAPHS = 64;
  private static final int FLIPS = 4096;

  @Param({"triangle", "2-path", "4-clique", "chordal-cycle", "tailed-triangle", "3-star", "4-cycle", "3-path"})
  public String pattern;

  private Pattern p;
  private MutableGraph[] graphs;
  private Graph[] immutable;
  private long[] counts;
  private int[] flipGraph;
  private int[] flipI;
  private int[] flipJ;
  private int cursor;
  private final DeltaFlipCounter delta = new DeltaFlipCounter();
  private final EgoNetFlipCounter egoNet = new EgoNetFlipCounter();

  @Setup
  public void setUp() {
    p = Pattern.fromName(pattern);
    graphs = new MutableGraph[GRAPHS];
    immutable = new Graph[GRAPHS];
    counts = new long[GRAPHS];
    for (int g = 0; g < GRAPHS; g++) {
      immutable[g] = RandomGraphs.paperSbm(g);
      graphs[g] = MutableGraph.of(immutable[g]);
      counts[g] = InducedCounts.count(immutable[g], p);
    }
    SplitMix64 rnd = new SplitMix64(12345);
    flipGraph = new int[FLIPS];
    flipI = new int[FLIPS];
    flipJ = new int[FLIPS];
    for (int f = 0; f < FLIPS; f++) {
      flipGraph[f] = rnd.nextInt(GRAPHS);
      flipI[f] = rnd.nextInt(30);
      flipJ[f] = (flipI[f] + 1 + rnd.nextInt(29)) % 30;
    }
  }

  @Benchmark
  public long deltaUpdate() {
    int f = cursor++ & (FLIPS - 1);
    int g = flipGraph[f];
    return delta.countAfterFlip(graphs[g], p, counts[g], flipI[f], flipJ[f]);
  }

  @Benchmark
  public long egoNetUpdate() {
    int f = cursor++ & (FLIPS - 1);
    int g = flipGraph[f];
    return egoNet.countAfterFlip(graphs[g], p, counts[g], flipI[f], flipJ[f]);
  }

  @Benchmark
  public long fullRecount() {
    int f = cursor++ & (FLIPS - 1);
    return InducedCounts.count(immutable[flipGraph[f]], p);
  }
}

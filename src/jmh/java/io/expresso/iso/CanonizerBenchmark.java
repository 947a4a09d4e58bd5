package io.expresso.iso;

import io.expresso.graph.Graph;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Canonical labelling throughput on the graph sets of {@link LabelgComparison} (2000 graphs per
 * family, same seeds): time per graph. Compare with nauty by running {@link LabelgComparison},
 * which times labelg and this canonizer in the same process run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CanonizerBenchmark {

  static final int COUNT = 2000;

  @Param({"molecules", "sbm30"})
  public String family;

  private List<Graph> graphs;

  @Setup
  public void setup() {
    graphs = LabelgComparison.family(family, COUNT);
  }

  @Benchmark
  @OperationsPerInvocation(COUNT)
  public void canonize(Blackhole bh) {
    for (Graph g : graphs) {
      bh.consume(Canonizer.certificate(g));
    }
  }
}

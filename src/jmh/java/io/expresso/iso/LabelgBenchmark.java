package io.expresso.iso;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * nauty's labelg as a subprocess on the graph sets of {@link CanonizerBenchmark}, for the same JMH
 * run: {@code labelgSet} canonizes all {@value CanonizerBenchmark#COUNT} graphs of a family,
 * {@code labelgSingle} one graph (process start and exit). labelg's time per graph is
 * (labelgSet − labelgSingle) / (COUNT − 1); compare with {@code CanonizerBenchmark.canonize}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LabelgBenchmark {

  @Param({"molecules", "sbm30"})
  public String family;

  private Path labelg;
  private Path set;
  private Path single;
  private Path out;

  @Setup
  public void setup() throws Exception {
    labelg = LabelgComparison.findLabelg();
    List<Graph> graphs = LabelgComparison.family(family, CanonizerBenchmark.COUNT);
    Path dir = Files.createTempDirectory("labelg-jmh");
    set = dir.resolve("set.g6");
    single = dir.resolve("single.g6");
    out = dir.resolve("out.g6");
    Graph6.writeFile(set, graphs);
    Graph6.writeFile(single, graphs.subList(0, 1));
  }

  @Benchmark
  public double labelgSet() throws Exception {
    return LabelgComparison.runLabelg(labelg, set, out);
  }

  @Benchmark
  public double labelgSingle() throws Exception {
    return LabelgComparison.runLabelg(labelg, single, out);
  }
}

package io.expresso.wl;

import io.expresso.suite.GraphPair;
import io.expresso.suite.SuiteSpecs;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What each baseline costs on the project's built-in suite (all its pairs, what
 * {@code expresso baseline --suite builtin} times as elapsed_seconds). 4-wl is left out: the
 * suite's CSL and CFI graphs exceed its size limit.
 *
 * <p>{@code java -jar target/benchmarks.jar BuiltinSuiteBenchmark -f 1 -wi 3 -i 5}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BuiltinSuiteBenchmark {

  @Param({"1-wl", "3-wl", "spd-wl", "s3", "s4", "n1", "n2", "m1"})
  public String method;

  private List<GraphPair> pairs;
  private PairDistinguisher distinguisher;

  @Setup
  public void setUp() {
    pairs = SuiteSpecs.load("builtin").pairs().toList();
    distinguisher = WlMethods.byName(method);
  }

  @Benchmark
  public int wholeSuite() {
    int distinguished = 0;
    for (GraphPair p : pairs) {
      distinguished += distinguisher.distinguishes(p.first(), p.second()) ? 1 : 0;
    }
    return distinguished;
  }
}

package io.expresso.metrics;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What metrics cost per task, next to the runtime's per-task budget (a no-op synthetic task
 * goes through the worker in tens of microseconds): the worker-side start + finish of one task,
 * the aggregator-side accounting of one pair result, and one full scrape with the meters of a
 * typical run registered.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MetersBenchmark {

  private Metrics metrics;
  private int i;

  @Setup
  public void setUp() {
    metrics = new Metrics();
    String[] categories = {"Basic", "Regular", "Extension", "CFI", "4-vertex", "distance-regular"};
    for (String model : new String[] {"1-wl", "3-wl", "gin"}) {
      for (String c : categories) {
        metrics.results().pair("e", "brec", c, model, true, true, 100, 10);
      }
    }
    metrics.tasks().started("pair", "cpu:0");
    metrics.tasks().finished("pair", "cpu:0", "1-wl", 0.01, null);
  }

  @TearDown
  public void tearDown() {
    metrics.close();
  }

  @Benchmark
  public void taskStartAndFinish() {
    metrics.tasks().started("synthetic", "cpu:0");
    metrics.tasks().finished("synthetic", "cpu:0", "none", 1e-4, null);
  }

  @Benchmark
  public void pairResult() {
    metrics.results().pair("e", "brec", "CFI", "gin", (i++ & 1) == 0, true, 50.0, 5.0);
  }

  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public int scrape() {
    return metrics.scrape().length();
  }
}

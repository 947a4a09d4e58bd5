package io.expresso.train;

import ai.djl.Device;
import io.expresso.model.ModelSpec;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
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
 * Seconds per pair on CPU for each model with its default spec and BREC settings, on the 10-vertex
 * pair decalin / bicyclopentyl (1-WL-equivalent, 3-WL-distinguishable): a fresh model, siamese
 * training on 2q = 64 relabelings until early stop or the epoch limit, embedding 128 relabelings,
 * RPC. One invocation = one whole pair, as {@code expresso eval} does it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = "-Dai.djl.offline=true")
public class PairEvaluationBenchmark {

  @Param({"gin", "ppgn", "ngnn-de"})
  public String model;

  private GraphPair pair;
  private ModelSpec spec;
  private EvaluationSettings settings;
  private long seed;

  @Setup
  public void setUp() {
    pair = new GraphPair(0, "Basic", Constructions.decalin(), Constructions.bicyclopentyl(), null);
    spec = ModelSpec.parse(model);
    settings = EvaluationSettings.defaults(spec.architecture());
  }

  @Benchmark
  public PairEvaluation evaluatePair() {
    return PairEvaluator.evaluate(pair, spec, settings, seed++, Device.cpu());
  }
}

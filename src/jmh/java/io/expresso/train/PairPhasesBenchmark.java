package io.expresso.train;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.model.ModelSpec;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Relabelings;
import io.expresso.suite.SuiteSpecs;
import java.util.ArrayList;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where one BREC pair's time goes on the CPU, phase by phase, under a model's BREC settings
 * (PPGN by default): a fresh model ({@code create}), siamese training on the pair's 2q relabelings
 * to BREC's early stop ({@code train}), and the 4q embeddings in evaluation mode with the passes
 * one after another or side by side ({@code embed}, {@code inferenceThreads}). What
 * {@link PairEvaluator} adds to these is the T² arithmetic (microseconds). The default pair, 115, is
 * one of the strongly regular pairs that train one epoch under seed 0; the fastest of them set
 * Regular's median in docs/results/brec-cpu-side-by-side.md. Run as {@code scripts/expresso} runs
 * Expresso (one malloc arena):
 *
 * <pre>
 * ./mvnw -B -q -P bench -DskipTests package &amp;&amp; MALLOC_ARENA_MAX=1 java -jar target/benchmarks.jar PairPhasesBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = "-Dai.djl.offline=true")
public class PairPhasesBenchmark {

  @Param({"brec-raw:../shared/data/brec-raw"})
  public String suite;

  @Param({"115"})
  public int pairIndex;

  @Param({"ppgn"})
  public String model;

  @Param({"1", "2"})
  public int inferenceThreads;

  private ModelSpec spec;
  private EvaluationSettings settings;
  private List<Graph> training;
  private List<Graph> embedded;
  private GraphModel trained;

  @Setup
  public void setUp() {
    GraphPair pair = SuiteSpecs.load(suite).pairs().filter(p -> p.index() == pairIndex).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no pair " + pairIndex + " in " + suite));
    spec = ModelSpec.parse(model);
    settings = EvaluationSettings.defaults(spec.architecture());
    Relabelings r = RelabelingDraw.forPair(pair, settings.training().q(), 0L);
    training = RelabelingDraw.interleave(r.first(), r.second());
    embedded = new ArrayList<>();
    for (List<Graph> block : List.of(r.first(), r.second(), r.reliabilityFirst(), r.reliabilitySecond())) {
      embedded.addAll(block);
    }
    trained = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 0L);
    trained.useInferenceThreads(inferenceThreads);
    SiameseTrainer.train(trained, training, settings.training());
  }

  @TearDown
  public void tearDown() {
    trained.close();
  }

  @Benchmark
  public long create() {
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 0L)) {
      return m.parameterCount();
    }
  }

  @Benchmark
  public TrainingOutcome train() {
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 0L)) {
      return SiameseTrainer.train(m, training, settings.training());
    }
  }

  @Benchmark
  public float[][] embed() {
    return trained.embed(embedded);
  }
}

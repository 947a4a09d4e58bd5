package io.expresso.train;

import ai.djl.Device;
import io.expresso.model.ModelSpec;
import io.expresso.engine.NativeEngine;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Load-insensitive companion to {@link PairEvaluationBenchmark}: wall-clock and process CPU
 * seconds (all threads, native PyTorch ones included) per 10-vertex pair for each model. On a
 * shared machine wall time depends on the neighbours; CPU time much less so.
 *
 * <pre>java -cp target/benchmarks.jar io.expresso.train.PairEvaluationCpuTime [pairs] [models...]</pre>
 */
public final class PairEvaluationCpuTime {

  private PairEvaluationCpuTime() {}

  public static void main(String[] args) {
    NativeEngine.start();
    int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    String[] models = args.length > 1 ? java.util.Arrays.copyOfRange(args, 1, args.length) : new String[] {"gin", "ppgn", "ngnn-de"};
    GraphPair pair = new GraphPair(0, "Basic", Constructions.decalin(), Constructions.bicyclopentyl(), null);
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    System.out.println("model     pairs  wall s/pair  cpu s/pair  epochs(last)  distinguished");
    for (String m : models) {
      ModelSpec spec = ModelSpec.parse(m);
      EvaluationSettings s = EvaluationSettings.defaults(spec.architecture());
      for (int w = 0; w < 3; w++) {
        PairEvaluator.evaluate(pair, spec, s, 1000 + w, Device.cpu()); // warm-up
      }
      long wall = System.nanoTime();
      long cpu = os.getProcessCpuTime();
      PairEvaluation last = null;
      int distinguished = 0;
      for (int i = 0; i < pairs; i++) {
        last = PairEvaluator.evaluate(pair, spec, s, i, Device.cpu());
        distinguished += last.distinguished() ? 1 : 0;
      }
      double wallS = (System.nanoTime() - wall) / 1e9 / pairs;
      double cpuS = (os.getProcessCpuTime() - cpu) / 1e9 / pairs;
      System.out.printf(Locale.ROOT, "%-9s %5d  %11.3f  %10.3f  %12d  %d/%d%n", m, pairs, wallS, cpuS,
          last.training().epochs(), distinguished, pairs);
    }
  }
}

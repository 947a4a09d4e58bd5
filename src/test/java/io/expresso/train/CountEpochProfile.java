package io.expresso.train;

import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.tracker.Tracker;
import io.expresso.count.CountingSplit;
import io.expresso.count.Pattern;
import io.expresso.count.SplitMix64;
import io.expresso.engine.Devices;
import io.expresso.engine.EngineSeeds;
import io.expresso.engine.NativeEngine;
import io.expresso.engine.ThreadGradients;
import io.expresso.graph.Graph;
import io.expresso.model.GraphRegressor;
import io.expresso.model.RegressorSpec;
import io.expresso.robust.StudyData;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A developer's tool, not a test: where one count-model epoch's time goes on this machine. Trains
 * the recipe's model of an architecture on the study's SBM graphs with the trainer's own step
 * (collation, forward, loss, backward, Adam step), timing each part, then validates as the
 * trainer does; and, with {@code trainer} as the fourth argument, times {@link
 * CountRegressionTrainer} alone (no worker, no Kafka) from its epoch callbacks.
 *
 * <pre>
 * java -Dai.djl.pytorch.num_threads=2 -cp target/test-classes:target/classes:$(cat cp.txt) \
 *     io.expresso.train.CountEpochProfile i2gnn 200 5 [trainer]
 * </pre>
 */
public final class CountEpochProfile {

  private CountEpochProfile() {}

  public static void main(String[] args) {
    String arch = args.length > 0 ? args[0] : "i2gnn";
    int graphs = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int epochs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    boolean trainerOnly = args.length > 3 && args[3].equals("trainer");
    NativeEngine.start();
    Pattern pattern = Pattern.fromName("triangle");
    CountRecipe recipe = CountRecipe.of(arch, pattern);
    CountingSplit split = StudyData.get("sbm", graphs);
    System.out.printf(Locale.ROOT, "%s on %d train / %d validation graphs, %d intra-op threads%n", recipe.spec(),
        split.train().graphs().size(), split.validation().graphs().size(), JniUtils.getNumThreads());
    if (trainerOnly) {
      timeTrainer(recipe, pattern, split, epochs);
    } else {
      profileSteps(recipe, pattern, split, epochs);
    }
  }

  /** This process's CPU time, all threads: the work done, which a loaded machine's waits do not inflate. */
  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** This process's minor page faults so far (-1 where /proc cannot be read): fresh pages the allocator faulted in. */
  static long minorFaults() {
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
      return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
    } catch (java.io.IOException | RuntimeException e) {
      return -1;
    }
  }

  private static void timeTrainer(CountRecipe recipe, Pattern pattern, CountingSplit split, int epochs) {
    CountRegressionTrainer.Settings s = new CountRegressionTrainer.Settings(epochs, recipe.batchSize(),
        recipe.learningRate(), 0, "cpu", 0.5f, 20, 0, true);
    long[] last = {System.nanoTime(), cpuNanos(), minorFaults()};
    try (TrainedCountModel m = new CountRegressionTrainer().train(RegressorSpec.parse(recipe.spec()), pattern,
        split.train(), split.validation(), s, e -> {
          long now = System.nanoTime();
          long cpu = cpuNanos();
          long faults = minorFaults();
          System.out.printf(Locale.ROOT, "trainer epoch %d: %.3f s (process CPU %.3f s, %d minor faults), train l1 %.4f,"
              + " validation l1 %.4f%n", e.epoch(), (now - last[0]) / 1e9, (cpu - last[1]) / 1e9, faults - last[2],
              e.trainLoss(), e.validationL1());
          last[0] = now;
          last[1] = cpu;
          last[2] = faults;
        }).model()) {
      // closed
    }
  }

  private static void profileSteps(CountRecipe recipe, Pattern pattern, CountingSplit split, int epochs) {
    RegressorSpec spec = RegressorSpec.parse(recipe.spec());
    GraphRegressor net = spec.create();
    Model model = Devices.newModel(spec.architecture(), Devices.parse("cpu"));
    model.setBlock(net.block());
    TrainedCountModel m = new TrainedCountModel(model, spec, net, pattern, 0, 1);
    Trainer trainer = model.newTrainer(new DefaultTrainingConfig(Loss.l1Loss())
        .optOptimizer(CountRegressionTrainer.optimizer(Tracker.fixed(recipe.learningRate()))));
    EngineSeeds.seeded(0, () -> trainer.initialize(net.inputShapes(model.getNDManager())));
    SplitMix64 rnd = new SplitMix64(1);
    int n = split.train().graphs().size();
    String[] names = {"collate", "forward", "loss", "backward", "step", "validate"};
    String trace = System.getProperty("trace");
    for (int epoch = 1; epoch <= epochs; epoch++) {
      if (trace != null && epoch == epochs) {
        JniUtils.startProfile(false, true, false); // libtorch's op-level trace of the last epoch
      }
      long[] t = new long[names.length];
      long e0 = System.nanoTime();
      long cpu0 = cpuNanos();
      int[] order = rnd.permutation(n);
      for (int from = 0; from < n; from += recipe.batchSize()) {
        List<Graph> batch = new ArrayList<>();
        float[] y = new float[Math.min(recipe.batchSize(), n - from)];
        for (int k = 0; k < y.length; k++) {
          batch.add(split.train().graphs().get(order[from + k]));
          y[k] = split.train().count(order[from + k], pattern);
        }
        JniUtils.setGradMode(true);
        try (NDManager sub = trainer.getManager().newSubManager()) {
          long a = System.nanoTime();
          NDList in = net.inputs(sub, batch);
          NDArray label = sub.create(y);
          long b = System.nanoTime();
          try (ThreadGradients gc = new ThreadGradients()) {
            NDList pred = trainer.forward(in);
            long c = System.nanoTime();
            NDArray loss = trainer.getLoss().evaluate(new NDList(label), pred);
            loss.getFloat();
            long d = System.nanoTime();
            gc.backward(loss);
            long e = System.nanoTime();
            t[0] += b - a;
            t[1] += c - b;
            t[2] += d - c;
            t[3] += e - d;
          }
          long f = System.nanoTime();
          OptimizerStep.apply(trainer);
          t[4] += System.nanoTime() - f;
        }
      }
      long v = System.nanoTime();
      double val = m.evaluate(split.validation()).l1();
      t[5] = System.nanoTime() - v;
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
          "epoch %d: %.3f s (process CPU %.3f s, validation l1 %.3f)", epoch, (System.nanoTime() - e0) / 1e9,
          (cpuNanos() - cpu0) / 1e9, val));
      for (int i = 0; i < names.length; i++) {
        line.append(String.format(Locale.ROOT, " %s %.3f", names[i], t[i] / 1e9));
      }
      System.out.println(line);
    }
    if (trace != null) {
      JniUtils.stopProfile(trace);
    }
    trainer.close();
    model.close();
  }
}

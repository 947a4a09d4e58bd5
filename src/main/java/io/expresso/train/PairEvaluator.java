package io.expresso.train;

import ai.djl.Device;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.engine.MemoryBudget;
import io.expresso.engine.MemoryBudgetException;
import io.expresso.engine.MemorySource;
import io.expresso.engine.DeviceOutOfMemory;
import io.expresso.engine.Devices;
import io.expresso.engine.PeakRss;
import io.expresso.model.ModelSpec;
import io.expresso.model.NetworkSpec;
import io.expresso.stats.PairJudgement;
import io.expresso.stats.PairedComparison;
import io.expresso.stats.PairedEmbeddings;
import io.expresso.stats.Threshold;
import io.expresso.stats.ThresholdRule;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Relabelings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point for one pair: train a fresh model as BREC does, embed every relabeling in
 * evaluation mode (as few forward passes as memory allows), judge with the settings' {@link ThresholdRule}. Pure Java;
 * callable from any thread (the runtime calls it from a device dispatcher).
 */
public final class PairEvaluator {

  private static final Logger LOG = LoggerFactory.getLogger(PairEvaluator.class);

  private PairEvaluator() {}

  /** As {@link #evaluate(GraphPair, ModelSpec, EvaluationSettings, long, Device)} with the model's BREC threshold, brec convention, α 0.05. */
  public static PairEvaluation evaluate(GraphPair pair, ModelSpec spec, TrainingSettings training, long seed, Device device) {
    return evaluate(pair, spec, EvaluationSettings.defaults(spec.architecture()).withTraining(training), seed, device);
  }

  /** As {@link #evaluate(GraphPair, ModelSpec, EvaluationSettings, long, Device, BooleanSupplier)}, never cancelled. */
  public static PairEvaluation evaluate(GraphPair pair, NetworkSpec spec, EvaluationSettings s, long seed, Device device) {
    return evaluate(pair, spec, s, seed, device, () -> false);
  }

  /** As {@link #evaluate(GraphPair, ModelSpec, EvaluationSettings, long, Device, MemoryBudget, BooleanSupplier)} with the device's default budget. */
  public static PairEvaluation evaluate(GraphPair pair, NetworkSpec spec, EvaluationSettings s, long seed, Device device,
      BooleanSupplier cancelled) {
    return evaluate(pair, spec, s, seed, device, MemoryBudget.defaultFor(device), cancelled);
  }

  /**
   * Evaluates {@code spec} on {@code pair}.
   *
   * @param seed fixes initial weights and any relabelings the suite does not ship
   * @param budget activation memory per pass; batches are split to fit, with the same result
   * @param cancelled checked before every training batch and before the embedding pass
   * @throws PairEvaluationException if training diverged so far that embeddings are not finite,
   *     or if even the smallest pass does not fit in the budget
   * @throws IllegalArgumentException if a TorchScript module does not fit (see {@link io.expresso.model.TorchScriptSpec})
   * @throws CancellationException once {@code cancelled} is true; the model is closed first
   */
  public static PairEvaluation evaluate(GraphPair pair, NetworkSpec spec, EvaluationSettings s, long seed, Device device,
      MemoryBudget budget, BooleanSupplier cancelled) {
    return evaluate(pair, spec, s, seed, device, MemorySource.fixed(budget), 1, cancelled);
  }

  /**
   * As {@link #evaluate(GraphPair, NetworkSpec, EvaluationSettings, long, Device, MemoryBudget, BooleanSupplier)},
   * the budget leased from {@code memory} for what this pair's passes need (see {@link
   * GraphModel#budgetForFullPasses}) and given back when the pair ends, however it ends, and the
   * embedding passes side by side on up to {@code inferenceThreads} threads (the same embeddings;
   * see {@link GraphModel#useInferenceThreads}).
   *
   * <p>A pair whose passes run out of the GPU's memory beside other evaluations (the estimates are
   * estimates, and PyTorch's caching allocator keeps what it freed) is rerun once from the start,
   * the same seed and the same budget (so the result it would have had), {@linkplain
   * MemorySource#leaseAlone alone} on the device once the others have ended.
   *
   * @throws CancellationException also when cancelled while waiting for memory
   * @throws PairEvaluationException also when the pair ran out of the device's memory alone too
   */
  public static PairEvaluation evaluate(GraphPair pair, NetworkSpec spec, EvaluationSettings s, long seed, Device device,
      MemorySource memory, int inferenceThreads, BooleanSupplier cancelled) {
    String what = "pair " + pair.index() + " (" + pair.category() + ") under " + spec.toText() + " on "
        + Devices.name(device);
    return rerunAloneOnOutOfMemory(memory,
        source -> attempt(pair, spec, s, seed, device, source, inferenceThreads, cancelled), what);
  }

  /**
   * {@code evaluation} on leases of {@code memory}; where it runs out of the device's memory, once
   * more on {@linkplain MemorySource#alone alone} leases (it then starts once the device's other
   * evaluations have ended, and none starts beside it).
   *
   * @param what the pair, the model and the device, for the error where it runs out alone too
   * @throws PairEvaluationException naming {@code what} where the rerun alone runs out too
   */
  static <T> T rerunAloneOnOutOfMemory(MemorySource memory, Function<MemorySource, T> evaluation, String what) {
    try {
      return evaluation.apply(memory);
    } catch (RuntimeException e) {
      if (!DeviceOutOfMemory.causedBy(e)) {
        throw e;
      }
      LOG.warn("{} ran out of the device's memory beside other evaluations ({}); rerunning it from the start, the"
          + " same seed, alone on the device", what, firstLine(e));
    }
    try {
      return evaluation.apply(memory.alone());
    } catch (RuntimeException e) {
      if (!DeviceOutOfMemory.causedBy(e)) {
        throw e;
      }
      throw new PairEvaluationException(what + " ran out of the device's memory twice, the second time alone on it: "
          + e.getMessage(), e);
    }
  }

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int end = m.indexOf(". ");
    return end < 0 ? m : m.substring(0, end);
  }

  private static PairEvaluation attempt(GraphPair pair, NetworkSpec spec, EvaluationSettings s, long seed, Device device,
      MemorySource memory, int inferenceThreads, BooleanSupplier cancelled) {
    long start = System.nanoTime();
    int q = s.training().q();
    Relabelings r = RelabelingDraw.forPair(pair, q, seed);
    List<Graph> trainingGraphs = RelabelingDraw.interleave(r.first(), r.second());
    List<List<Graph>> blocks = new ArrayList<>(List.of(r.first(), r.second(), r.reliabilityFirst(), r.reliabilitySecond()));
    // the threshold's within-graph groups (none under RPC), alternating between G and H
    ThresholdRule rule = s.threshold();
    SplitMix64 rng = new SplitMix64(seed * 0x9E3779B97F4A7C15L + 0xA5C);
    for (int k = 0; k < rule.groups(); k++) {
      Graph g = k % 2 == 0 ? pair.first() : pair.second();
      blocks.add(RelabelingDraw.relabel(g, q, rng));
      blocks.add(RelabelingDraw.relabel(g, q, rng));
    }
    List<Graph> all = new ArrayList<>();
    blocks.forEach(all::addAll);
    try (PeakRss rss = PeakRss.watch();
        GraphModel model = GraphModel.create(spec, Head.EMBEDDING, device, seed)) {
      model.useInferenceThreads(inferenceThreads);
      long asked = System.nanoTime();
      // a training pass holds one batch at most (SiameseTrainer sizes its passes on the first)
      List<Graph> firstBatch = trainingGraphs.subList(0, Math.min(trainingGraphs.size(), s.training().batchSize()));
      long need = model.budgetForFullPasses(firstBatch, all);
      try (MemorySource.Lease lease = memory.lease(need, cancelled)) {
        long waited = System.nanoTime() - asked; // for memory that pairs beside it held: not this pair's time
        MemoryBudget budget = lease.budget();
        model.useMemoryBudget(budget);
        TrainingOutcome trained;
        float[][] emb;
        try {
          try {
            trained = SiameseTrainer.train(model, trainingGraphs, s.training(), cancelled);
          } catch (MemoryBudgetException e) {
            throw new PairEvaluationException("pair " + pair.index() + " (" + pair.category() + "): " + e.getMessage(), e);
          }

          // The embedding pass over 4q graphs or more costs about an epoch: not worth starting once cancelled.
          if (cancelled.getAsBoolean()) {
            throw new CancellationException("pair " + pair.index() + " cancelled after training, before the embedding pass");
          }
          emb = model.embed(all);
        } catch (RuntimeException e) {
          throw DeviceOutOfMemory.causedBy(e) ? DeviceOutOfMemory.of(e, need, budget,
              model.graphsPerTrainingPass(firstBatch), model.graphsPerInferencePass(all)) : e;
        }
        List<double[][]> tables = new ArrayList<>();
        for (int b = 0; b < blocks.size(); b++) {
          tables.add(rows(emb, b * q, q));
        }

        PairJudgement judgement;
        try {
          List<PairedEmbeddings> groups = new ArrayList<>();
          for (int k = 0; k < rule.groups(); k++) {
            groups.add(new PairedEmbeddings(tables.get(4 + 2 * k), tables.get(5 + 2 * k)));
          }
          Threshold threshold = rule.threshold(q, model.embeddingWidth(), groups, s.convention());
          judgement = PairedComparison.judge(tables.get(0), tables.get(1), tables.get(2), tables.get(3), threshold, s.convention());
        } catch (IllegalArgumentException e) {
          throw new PairEvaluationException("pair " + pair.index() + " (" + pair.category() + "): " + e.getMessage()
              + " (training skipped " + trained.skippedSteps() + " non-finite steps)", e);
        }
        MemoryUse use = new MemoryUse(budget.bytes(), trained.graphsPerPass(), model.graphsPerInferencePass(all),
            rss.peakBytes());
        return new PairEvaluation(pair.index(), pair.category(), seed, judgement, trained,
            (System.nanoTime() - start - waited) / 1e9, model.parameterCount(), use);
      }
    }
  }

  private static double[][] rows(float[][] emb, int from, int count) {
    double[][] out = new double[count][];
    for (int i = 0; i < count; i++) {
      float[] src = emb[from + i];
      out[i] = new double[src.length];
      for (int k = 0; k < src.length; k++) {
        out[i][k] = src[k];
      }
    }
    return out;
  }
}

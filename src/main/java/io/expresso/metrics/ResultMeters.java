package io.expresso.metrics;

import static io.expresso.metrics.MeterNames.*;

import io.expresso.attack.AttackCurves;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Aggregator-side meters, fed once per unique result: pair-suite outcomes and Hotelling's T²,
 * training epochs and final loss, attack successes by budget and the resulting AUC; and tasks by
 * their current outcome, where a retry's success replaces the error. Every label value that comes
 * from a message passes the {@link LabelGuard}: suites by short name, models by architecture or
 * method, all sanitised and capped.
 */
public final class ResultMeters {

  /** T² buckets around the RPC threshold (72.34 for q=32, d=16, α=0.05). */
  private static final double[] T2_BUCKETS = {
    1, 2, 5, 10, 20, 30, 40, 50, 60, 72.34, 100, 200, 500, 1e3, 1e4, 1e5, 1e6
  };

  private final MeterRegistry registry;
  private final LabelGuard guard;
  /** Per guarded (model, pattern, space): budget fraction → {attacked, succeeded}, for the AUC gauge. */
  private final Map<String, NavigableMap<Double, long[]>> curves = new ConcurrentHashMap<>();
  private final Map<String, double[]> auc = new ConcurrentHashMap<>();
  /** Per (guarded kind, outcome): tasks whose kept result has that outcome. */
  private final Map<String, AtomicLong> tasksByOutcome = new ConcurrentHashMap<>();

  ResultMeters(MeterRegistry registry, LabelGuard guard) {
    this.registry = registry;
    this.guard = guard;
  }

  /**
   * Makes the outcome meters of these task kinds visible at zero from start-up, so a dashboard
   * shows 0 failed tasks rather than "no data" before the first result.
   */
  public void registerKinds(java.util.Collection<String> kinds) {
    for (String kind : kinds) {
      for (boolean ok : new boolean[] {true, false}) {
        outcomes(kind, ok);
        tasks(kind, ok);
      }
      duplicates(kind);
    }
  }

  /**
   * A result record for a task already read: the task ran twice (results are produced at least
   * once) or was published again. The task itself is not counted again.
   */
  public void duplicate(String kind) {
    duplicates(guard.value(KIND, kind)).increment();
  }

  private Counter duplicates(String kind) {
    return Counter.builder(RESULT_DUPLICATES)
        .description("Result records for a task already read (a task run twice, or published again);"
            + " each task is counted once, by its first success, else its latest error")
        .tag(KIND, kind).register(registry);
  }

  /**
   * A result that sets the outcome of a task of {@code kind}: its first, or a success superseding
   * its error (then call {@link #errorSuperseded} for the error first).
   */
  public void result(String kind, boolean ok) {
    String k = guard.value(KIND, kind);
    outcomeSet(k, ok);
    tasks(k, ok).incrementAndGet();
  }

  /** A task's error result was superseded by a success: the task no longer counts as failed. */
  public void errorSuperseded(String kind) {
    tasks(guard.value(KIND, kind), false).decrementAndGet();
  }

  // a counter only counts up, so it counts events; the current state is the gauge below
  private void outcomeSet(String kind, boolean ok) {
    outcomes(kind, ok).increment();
  }

  private Counter outcomes(String kind, boolean ok) {
    return Counter.builder(RESULTS)
        .description("Results that set a task's outcome: its first result, or a success superseding its error"
            + " (events; the tasks failed now are expresso_experiment_tasks{outcome=\"error\"})")
        .tag(KIND, kind).tag(OUTCOME, ok ? "ok" : "error").register(registry);
  }

  // no experiment label: no dashboard needs one here, and every experiment would add series
  private AtomicLong tasks(String kind, boolean ok) {
    String outcome = ok ? "ok" : "error";
    return tasksByOutcome.computeIfAbsent(kind + '\u0000' + outcome, k -> {
      AtomicLong n = new AtomicLong();
      Gauge.builder(EXPERIMENT_TASKS, n, AtomicLong::get)
          .description("Tasks by the outcome of their kept result; a retry's success moves a task"
              + " from error to ok, so outcome=error is the tasks failed now")
          .tag(KIND, kind).tag(OUTCOME, outcome).register(registry);
      return n;
    });
  }

  /**
   * One pair judged. {@code suite} is the suite spec, {@code model} the method or model spec.
   * {@code t2Test} and {@code t2Reliability} are NaN for exact (non-GNN) methods, which have no
   * statistic.
   */
  public void pair(String experiment, String suite, String category, String model,
      boolean distinguished, boolean reliable, double t2Test, double t2Reliability) {
    String suiteName = LabelGuard.suiteName(suite);
    String modelName = LabelGuard.modelName(model);
    // experiment only here: the Expressiveness dashboard selects by it
    Tags pairTags = guard.series(PAIRS_EVALUATED,
        EXPERIMENT, experiment, SUITE, suiteName, CATEGORY, category, MODEL, modelName);
    // all three series exist from the first pair on (at 0), so ratios and panels show zeros
    counter(PAIRS_EVALUATED, "Pairs judged", pairTags).increment();
    counter(PAIRS_DISTINGUISHED, "Pairs judged distinguishable", pairTags).increment(distinguished ? 1 : 0);
    counter(PAIRS_RELIABILITY_FAILURES, "Pairs whose reliability check failed", pairTags)
        .increment(reliable ? 0 : 1);
    if (Double.isNaN(t2Test) && Double.isNaN(t2Reliability)) {
      return;
    }
    Tags t2Tags = guard.series(PAIR_T2, SUITE, suiteName, CATEGORY, category, MODEL, modelName);
    t2(t2Tags, "test", t2Test);
    t2(t2Tags, "reliability", t2Reliability);
  }

  /** A model was trained for {@code epochs} epochs, ending at {@code finalLoss} (NaN if unknown). */
  public void training(String kind, String model, int epochs, double finalLoss) {
    if (epochs <= 0 && !Double.isFinite(finalLoss)) {
      return;
    }
    Tags tags = guard.series(TRAINING_EPOCHS, KIND, kind, MODEL, LabelGuard.modelName(model));
    if (epochs > 0) {
      Counter.builder(TRAINING_EPOCHS).description("Epochs trained")
          .tags(tags).register(registry).increment(epochs);
    }
    if (Double.isFinite(finalLoss)) {
      DistributionSummary.builder(TRAINING_FINAL_LOSS).description("Training loss at the last epoch")
          .tags(tags).register(registry).record(finalLoss);
    }
  }

  /**
   * The memory one trained model's pair took: the worker's peak resident bytes while it ran (0 or
   * less: unknown, as in results of workers that did not measure it; not recorded).
   */
  public void pairMemory(String model, long peakRssBytes) {
    if (peakRssBytes <= 0) {
      return;
    }
    Tags tags = guard.series(PAIR_PEAK_MEMORY, MODEL, LabelGuard.modelName(model));
    DistributionSummary.builder(PAIR_PEAK_MEMORY).baseUnit("bytes")
        .description("Worker's peak resident memory while a trained model's pair ran (whole process)")
        .tags(tags).register(registry).record(peakRssBytes);
  }

  /**
   * One attacked graph: for each budget, whether the attack with that budget returned an
   * adversarial example. Graphs the model already got wrong before the attack are not attacked
   * and not reported.
   *
   * <p>The targets and successes counters are labelled by budget in flips and count the graph
   * once per distinct flip count (small datasets map 1% and 5% to the same flip). The AUC gauge is
   * the report's NR ({@link AttackCurves#normalisedAuc}) over the budget fractions, from the
   * success rates pooled over every graph reported so far; results that carry no fractions (older
   * workers) leave it unchanged.
   *
   * @param fractions per budget, its fraction of the mean edge count; empty if unknown
   */
  public void attack(String model, String pattern, String space, double[] fractions, int[] budgets,
      boolean[] succeeded) {
    if (budgets.length != succeeded.length) {
      throw new IllegalArgumentException(budgets.length + " budgets for " + succeeded.length + " outcomes");
    }
    if (fractions.length != 0 && fractions.length != budgets.length) {
      throw new IllegalArgumentException(fractions.length + " budget fractions for " + budgets.length + " budgets");
    }
    java.util.Set<Integer> counted = new java.util.HashSet<>();
    for (int b = 0; b < budgets.length; b++) {
      if (!counted.add(budgets[b])) {
        continue; // the same flip budget twice: the same search answer, one graph
      }
      Tags tags = guard.series(ATTACK_TARGETS, MODEL, LabelGuard.modelName(model), PATTERN, pattern, SPACE, space,
          BUDGET, Integer.toString(budgets[b]));
      Counter.builder(ATTACK_TARGETS).description("Graphs attacked").tags(tags).register(registry).increment();
      Counter successes = Counter.builder(ATTACK_SUCCESSES).description("Adversarial examples found")
          .tags(tags).register(registry);
      if (succeeded[b]) {
        successes.increment();
      }
    }
    if (fractions.length == 0) {
      return;
    }
    Tags curveTags = guard.series(ATTACK_AUC, MODEL, LabelGuard.modelName(model), PATTERN, pattern, SPACE, space);
    String key = curveTags.stream().map(Tag::getValue).collect(Collectors.joining("\u0000"));
    NavigableMap<Double, long[]> curve = curves.computeIfAbsent(key, k -> new TreeMap<>());
    double value;
    synchronized (curve) {
      for (int b = 0; b < budgets.length; b++) {
        long[] counts = curve.computeIfAbsent(fractions[b], x -> new long[2]);
        counts[0]++;
        counts[1] += succeeded[b] ? 1 : 0;
      }
      double[] xs = new double[curve.size()];
      double[] rates = new double[curve.size()];
      int i = 0;
      for (Map.Entry<Double, long[]> e : curve.entrySet()) {
        xs[i] = e.getKey();
        rates[i++] = (double) e.getValue()[1] / e.getValue()[0];
      }
      value = AttackCurves.normalisedAuc(xs, rates);
    }
    auc.computeIfAbsent(key, k -> {
      double[] holder = {Double.NaN};
      Gauge.builder(ATTACK_AUC, holder, h -> h[0])
          .description("NR: area under attack success rate versus budget fraction, over the unity area")
          .tags(curveTags).register(registry);
      return holder;
    })[0] = value;
  }

  /**
   * One finished epoch of a running train task: its gauges hold the latest epoch, train and
   * validation ℓ1 and learning rate per (experiment, model, pattern, seed), each label through the
   * guard. The label set is open (experiments come and go), so nothing is registered at start-up.
   */
  public void trainEpoch(String experiment, String model, String pattern, long seed, int epoch, double trainL1,
      double validationL1, double learningRate) {
    Tags tags = guard.series(TRAIN_EPOCH, EXPERIMENT, experiment, MODEL, LabelGuard.modelName(model), PATTERN, pattern,
        SEED, Long.toString(seed));
    gauge(TRAIN_EPOCH, "Latest epoch finished by a running train task", tags).accept(epoch);
    gauge(TRAIN_L1, "Latest epoch's mean l1 of a running train task", tags.and(SPLIT, "train")).accept(trainL1);
    gauge(TRAIN_L1, "Latest epoch's mean l1 of a running train task", tags.and(SPLIT, "validation"))
        .accept(validationL1);
    gauge(TRAIN_LEARNING_RATE, "Learning rate of a running train task's latest epoch", tags).accept(learningRate);
  }

  private final Map<List<Object>, java.util.concurrent.atomic.AtomicReference<Double>> gauges = new ConcurrentHashMap<>();

  /** A settable gauge, registered once per name and tags. */
  private java.util.function.DoubleConsumer gauge(String name, String description, Tags tags) {
    java.util.concurrent.atomic.AtomicReference<Double> holder = gauges.computeIfAbsent(List.of(name, tags), k -> {
      java.util.concurrent.atomic.AtomicReference<Double> h = new java.util.concurrent.atomic.AtomicReference<>(Double.NaN);
      Gauge.builder(name, h, r -> r.get()).description(description).tags(tags).register(registry);
      return h;
    });
    return v -> holder.set(v);
  }

  private Counter counter(String name, String description, Tags tags) {
    return Counter.builder(name).description(description).tags(tags).register(registry);
  }

  private void t2(Tags tags, String statistic, double value) {
    if (!Double.isFinite(value)) { // NaN: no statistic; +∞ (no spread) would make the series' sum infinite
      return;
    }
    DistributionSummary.builder(PAIR_T2).description("Hotelling's T² of a pair test")
        .serviceLevelObjectives(T2_BUCKETS)
        .tags(tags).tag(STATISTIC, statistic)
        .register(registry).record(value);
  }
}

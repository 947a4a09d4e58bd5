package io.expresso.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.runtime.kafka.TaskIdWindow;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the live page shows, fed by the aggregator once per unique result: experiments (results,
 * errors, expected total when known), per (suite, model, seed, category) pair counts shown as
 * each configuration's best seed beside BREC's paper ({@link BrecCard}), attack success
 * rates per budget, and the workers and devices that produced results. Every change bumps
 * {@link #version()}, which the SSE stream watches. Synchronized: updates are rare next to the
 * work that produced them. Summaries only, never a row per result: what it holds grows with
 * experiments, (suite, model, seed, category) rows, attack curves, workers and running train tasks.
 */
public final class LiveState {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, Experiment> experiments = new LinkedHashMap<>();
  private final Map<String, Worker> workers = new TreeMap<>();
  /** Train tasks whose successful result arrived, so late epochs stay out (bounded: no task ids kept). */
  private final TaskIdWindow trained = new TaskIdWindow();
  private long version;

  /** The expected number of results of an experiment, when the publisher knows it. */
  public synchronized void expect(String experiment, long total) {
    experiment(experiment).expected = total;
    version++;
  }

  /** One judged pair of one seed. */
  public synchronized void pair(String experiment, String suite, String category, String model, long seed,
      boolean distinguished, boolean reliable) {
    Experiment e = experiment(experiment);
    e.kinds.merge("pair", 1L, Long::sum);
    e.results++;
    long[] c = e.configurations.computeIfAbsent(suite + '\u0000' + model, k -> new TreeMap<>())
        .computeIfAbsent(seed, k -> new LinkedHashMap<>()).computeIfAbsent(category, k -> new long[4]);
    c[0]++;
    c[1] += distinguished ? 1 : 0;
    c[2] += reliable ? 0 : 1;
    c[3] += distinguished && reliable ? 1 : 0;
    version++;
  }

  /**
   * One attacked graph: per budget, whether the attack with that budget returned an adversarial
   * example. Budgets are keyed by their fraction of the mean edge count when known (so 1% and 5%
   * that both round to one flip stay two points, each counting the graph once), else by flips
   * (each distinct flip count once). Does not count a result (an attack task reports many graphs):
   * call {@link #other} once per task.
   *
   * @param fractions per budget, its fraction of the mean edge count; empty if unknown
   */
  public synchronized void attack(String experiment, String model, String pattern, String space,
      double[] fractions, int[] budgets, boolean[] succeeded) {
    boolean byFraction = fractions.length == budgets.length && budgets.length > 0;
    Experiment e = experiment(experiment);
    Curve curve = e.attacks.computeIfAbsent(model + '\u0000' + pattern + '\u0000' + space,
        k -> new Curve(byFraction));
    java.util.Set<Double> seen = new java.util.HashSet<>();
    for (int b = 0; b < budgets.length; b++) {
      double x = curve.byFraction && byFraction ? fractions[b] : budgets[b];
      if (!seen.add(x)) {
        continue;
      }
      long[] c = curve.points.computeIfAbsent(x, k -> new long[3]);
      c[0]++;
      c[1] += succeeded[b] ? 1 : 0;
      c[2] = budgets[b];
    }
    version++;
  }

  /**
   * A running train task finished an epoch (from {@code expresso.progress}): the task's row shows
   * its latest epoch. Epochs of a task whose result already arrived are ignored (the progress topic
   * is read apart from the results, so its records may come late).
   */
  public synchronized void trainEpoch(io.expresso.proto.v1.TrainProgress p) {
    Experiment e = experiment(p.getExperimentId().isEmpty() ? "(none)" : p.getExperimentId());
    if (trained.get(p.getTaskId()) != TaskIdWindow.ABSENT) {
      return;
    }
    io.expresso.proto.v1.TrainProgress before = e.training.get(p.getTaskId());
    if (before != null && before.getEpoch() > p.getEpoch()) {
      return; // an older epoch read late (or a resumed attempt's replay): keep the newest
    }
    e.training.put(p.getTaskId(), p);
    version++;
  }

  /** A train task's result arrived: its progress row goes; {@code succeeded} keeps late epochs out. */
  public synchronized void trainFinished(String experiment, String taskId, boolean succeeded) {
    Experiment e = experiment(experiment);
    if (succeeded) {
      trained.put(taskId, true);
    }
    if (e.training.remove(taskId) != null) {
      version++;
    }
  }

  /** One result of another kind (synthetic, train) that only counts towards progress. */
  public synchronized void other(String experiment, String kind) {
    Experiment e = experiment(experiment);
    e.kinds.merge(kind, 1L, Long::sum);
    e.results++;
    version++;
  }

  /** One error result. */
  public synchronized void error(String experiment, String kind) {
    Experiment e = experiment(experiment);
    e.kinds.merge(kind, 1L, Long::sum);
    e.results++;
    e.errors++;
    version++;
  }

  /**
   * A task's error result was superseded by a later success: it leaves the errors, and the
   * success is then reported like a first result (so the task still counts once).
   */
  public synchronized void errorSuperseded(String experiment, String kind) {
    Experiment e = experiment(experiment);
    e.kinds.merge(kind, -1L, Long::sum);
    e.kinds.remove(kind, 0L);
    e.results--;
    e.errors--;
    version++;
  }

  /** A worker's device finished a task that took {@code seconds}. */
  public synchronized void worker(String worker, String device, double seconds, long nowMillis) {
    Worker w = workers.computeIfAbsent(worker + " " + device, k -> new Worker(worker, device));
    w.tasks++;
    w.busySeconds += seconds;
    w.lastSeenMillis = nowMillis;
    version++;
  }

  public synchronized long version() {
    return version;
  }

  /** The page's JSON snapshot. */
  public synchronized String json(long nowMillis) {
    ObjectNode root = JSON.createObjectNode();
    root.put("version", version);
    ArrayNode exps = root.putArray("experiments");
    for (Map.Entry<String, Experiment> en : experiments.entrySet()) {
      Experiment e = en.getValue();
      ObjectNode x = exps.addObject();
      x.put("id", en.getKey());
      x.put("results", e.results);
      x.put("errors", e.errors);
      if (e.expected > 0) {
        x.put("expected", e.expected);
      } else {
        x.putNull("expected");
      }
      ObjectNode kinds = x.putObject("kinds");
      e.kinds.forEach(kinds::put);
      ArrayNode configurations = x.putArray("configurations");
      e.configurations.forEach((k, bySeed) -> {
        String[] p = k.split("\u0000", -1);
        BrecCard.write(configurations.addObject(), p[0], p[1], bySeed);
      });
      ArrayNode training = x.putArray("training");
      for (io.expresso.proto.v1.TrainProgress p : e.training.values()) {
        training.addObject().put("task", p.getTaskId()).put("model", p.getModel()).put("pattern", p.getPattern())
            .put("dataset", p.getDataset()).put("seed", p.getSeed()).put("epoch", p.getEpoch())
            .put("max_epochs", p.getMaxEpochs()).put("train_l1", p.getTrainL1())
            .put("validation_l1", p.getValidationL1()).put("learning_rate", p.getLearningRate())
            .put("worker", p.getWorkerId());
      }
      ArrayNode attacks = x.putArray("attacks");
      e.attacks.forEach((k, curve) -> {
        String[] p = k.split("\u0000", -1);
        ObjectNode a = attacks.addObject();
        a.put("model", p[0]).put("pattern", p[1]).put("space", p[2]);
        ArrayNode fs = a.putArray("fractions");
        ArrayNode bs = a.putArray("budgets");
        ArrayNode rates = a.putArray("rates");
        ArrayNode attacked = a.putArray("attacked");
        double[] xs = new double[curve.points.size()];
        double[] ys = new double[curve.points.size()];
        int[] i = {0};
        curve.points.forEach((budget, c) -> {
          if (curve.byFraction) {
            fs.add(budget);
          }
          bs.add(c[2]);
          rates.add((double) c[1] / c[0]);
          attacked.add(c[0]);
          xs[i[0]] = budget;
          ys[i[0]++] = (double) c[1] / c[0];
        });
        // the report's NR, defined over budget fractions only
        if (curve.byFraction && xs.length > 0) {
          a.put("nr", io.expresso.attack.AttackCurves.normalisedAuc(xs, ys));
        } else {
          a.putNull("nr");
        }
      });
    }
    ArrayNode ws = root.putArray("workers");
    for (Worker w : workers.values()) {
      ObjectNode o = ws.addObject();
      o.put("worker", w.worker).put("device", w.device).put("tasks", w.tasks);
      o.put("busy_seconds", Math.round(w.busySeconds * 1000) / 1000.0);
      o.put("last_seen_seconds_ago", Math.max(0, nowMillis - w.lastSeenMillis) / 1000.0);
    }
    return root.toString();
  }

  private Experiment experiment(String id) {
    return experiments.computeIfAbsent(id, k -> new Experiment());
  }

  private static final class Experiment {
    long results;
    long errors;
    long expected;
    final Map<String, Long> kinds = new TreeMap<>();
    /** suite, model → seed → category (first-seen order) → {evaluated, distinguished,
     * reliability failures, distinguished and reliable}. */
    final Map<String, Map<Long, Map<String, long[]>>> configurations = new TreeMap<>();
    /** model, pattern, space → its success curve. */
    final Map<String, Curve> attacks = new TreeMap<>();
    /** Running train tasks by task id: their latest epoch (until the result; progress is kept a day). */
    final Map<String, io.expresso.proto.v1.TrainProgress> training = new TreeMap<>();
  }

  /** Budget (fraction, or flips when fractions are unknown) → {attacked, succeeded, flips}. */
  private static final class Curve {
    final boolean byFraction;
    final Map<Double, long[]> points = new TreeMap<>();

    Curve(boolean byFraction) {
      this.byFraction = byFraction;
    }
  }

  private static final class Worker {
    final String worker;
    final String device;
    long tasks;
    double busySeconds;
    long lastSeenMillis;

    Worker(String worker, String device) {
      this.worker = worker;
      this.device = device;
    }
  }

  private final Map<String, java.util.function.BooleanSupplier> readers = new java.util.concurrent.ConcurrentHashMap<>();

  /** Registers a reader of the cluster (aggregator, task counter) whose currency {@code /health} reports. */
  public void reader(String name, java.util.function.BooleanSupplier current) {
    readers.put(name, current);
  }

  /** {@code {"current":true,"readers":{"aggregator":true,...}}}: whether every reader read from the broker lately. */
  public String healthJson() {
    StringBuilder sb = new StringBuilder("{\"readers\":{");
    boolean all = true;
    boolean first = true;
    for (Map.Entry<String, java.util.function.BooleanSupplier> e : new java.util.TreeMap<>(readers).entrySet()) {
      boolean ok = e.getValue().getAsBoolean();
      all &= ok;
      sb.append(first ? "" : ",").append('"').append(e.getKey()).append("\":").append(ok);
      first = false;
    }
    return "{\"current\":" + all + "," + sb.substring(1) + "}}";
  }

  public boolean current() {
    return readers.values().stream().allMatch(java.util.function.BooleanSupplier::getAsBoolean);
  }
}

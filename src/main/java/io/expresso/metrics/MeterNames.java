package io.expresso.metrics;

import java.util.List;

/**
 * The meter names: the contract with the Grafana dashboards and anyone scraping {@code /metrics}.
 * Each constant is the Micrometer name; the Prometheus registry exposes it in snake case with the
 * base unit and {@code _total} for counters, as written after each constant. Labels are
 * low-cardinality (kind, model, device, suite, category, pattern, space, budget, experiment) and
 * never a task id; values taken from messages pass {@link LabelGuard} (suite = short name, model =
 * architecture or method, sanitised, capped per label and per meter, then {@code other}).
 */
public final class MeterNames {
  private MeterNames() {}

  // ---- tasks (every worker) ----
  /** {@code expresso_tasks_received_total{kind}}: tasks taken from Kafka. */
  public static final String TASKS_RECEIVED = "expresso.tasks.received";
  /** {@code expresso_tasks_completed_total{kind}}: tasks that produced a result. */
  public static final String TASKS_COMPLETED = "expresso.tasks.completed";
  /** {@code expresso_tasks_failed_total{kind,reason}}: tasks that became an error result. */
  public static final String TASKS_FAILED = "expresso.tasks.failed";
  /** {@code expresso_task_duration_seconds{kind,model}}: histogram of evaluation time. */
  public static final String TASK_DURATION = "expresso.task.duration";
  /** {@code expresso_tasks_in_flight{device}}: tasks a device is working on now. */
  public static final String TASKS_IN_FLIGHT = "expresso.tasks.in.flight";
  /** {@code expresso_device_busy_seconds_total{device}}: time a device spent on tasks. */
  public static final String DEVICE_BUSY = "expresso.device.busy";
  /**
   * {@code expresso_consumer_lag_records{group,topic}}: the share group's backlog, tasks not yet
   * acknowledged (waiting or running); KEDA scales on it.
   */
  public static final String CONSUMER_LAG = "expresso.consumer.lag";

  // ---- the fleet: membership, releases, attempts (every worker) ----
  /** {@code expresso_tasks_cancelled_total{kind,reason}}: running tasks cancelled and released (stopping, interrupted). */
  public static final String TASKS_CANCELLED = "expresso.tasks.cancelled";
  /** {@code expresso_tasks_handed_back_total}: queued tasks released before they started (the worker stopped). */
  public static final String TASKS_HANDED_BACK = "expresso.tasks.handed.back";
  /** {@code expresso_task_attempts_total{kind}}: task starts on a device, one per delivery that ran. */
  public static final String TASK_ATTEMPTS = "expresso.task.attempts";
  /** {@code expresso_tasks_poison_total{kind}}: tasks dead-lettered after too many deliveries. */
  public static final String TASKS_POISON = "expresso.tasks.poison";
  /** {@code expresso_task_loop_restarts_total}: task loop failures recovered with new Kafka clients. */
  public static final String TASK_LOOP_RESTARTS = "expresso.task.loop.restarts";
  /** {@code expresso_device_task_age_seconds{device}}: how long the device's current task has run (0 when idle). */
  public static final String DEVICE_TASK_AGE = "expresso.device.task.age";
  /** {@code expresso_memory_pool_size_bytes}: the process's CPU memory pool (half the machine's memory). */
  public static final String MEMORY_POOL_SIZE = "expresso.memory.pool.size";
  /** {@code expresso_memory_pool_leased_bytes}: what the pairs running on CPU devices hold of it. */
  public static final String MEMORY_POOL_LEASED = "expresso.memory.pool.leased";
  /** {@code expresso_memory_pool_waiting_pairs}: pairs waiting for the pool to hold their passes. */
  public static final String MEMORY_POOL_WAITING = "expresso.memory.pool.waiting";

  // ---- pair suites (aggregator, from results) ----
  /** {@code expresso_pairs_evaluated_total{experiment,suite,category,model}}. */
  public static final String PAIRS_EVALUATED = "expresso.pairs.evaluated";
  /** {@code expresso_pairs_distinguished_total{experiment,suite,category,model}}. */
  public static final String PAIRS_DISTINGUISHED = "expresso.pairs.distinguished";
  /** {@code expresso_pairs_reliability_failures_total{experiment,suite,category,model}}. */
  public static final String PAIRS_RELIABILITY_FAILURES = "expresso.pairs.reliability.failures";
  /** {@code expresso_pair_t2{suite,category,model,statistic}}: histogram of Hotelling's T². */
  public static final String PAIR_T2 = "expresso.pair.t2";

  // ---- training (aggregator, from results) ----
  /** {@code expresso_training_epochs_total{kind,model}}: epochs trained. */
  public static final String TRAINING_EPOCHS = "expresso.training.epochs";
  /** {@code expresso_training_final_loss{kind,model}}: summary of the loss at the last epoch. */
  public static final String TRAINING_FINAL_LOSS = "expresso.training.final.loss";
  /** The worker process's peak resident memory while a trained model's pair ran. */
  public static final String PAIR_PEAK_MEMORY = "expresso.pair.peak.memory";

  // ---- running count-model training (live service, from expresso.progress) ----
  /** {@code expresso_train_epoch{experiment,model,pattern,seed}}: the latest epoch a running train task finished. */
  public static final String TRAIN_EPOCH = "expresso.train.epoch";
  /** {@code expresso_train_l1{experiment,model,pattern,seed,split}}: that epoch's ℓ1, split train or validation. */
  public static final String TRAIN_L1 = "expresso.train.l1";
  /** {@code expresso_train_learning_rate{experiment,model,pattern,seed}}: the rate that epoch trained with. */
  public static final String TRAIN_LEARNING_RATE = "expresso.train.learning.rate";

  // ---- attacks (aggregator, from results) ----
  /** {@code expresso_attack_targets_total{model,pattern,space,budget}}: graphs attacked. */
  public static final String ATTACK_TARGETS = "expresso.attack.targets";
  /** {@code expresso_attack_successes_total{model,pattern,space,budget}}: adversarial examples. */
  public static final String ATTACK_SUCCESSES = "expresso.attack.successes";
  /** {@code expresso_attack_auc{model,pattern,space}}: area under success rate versus budget. */
  public static final String ATTACK_AUC = "expresso.attack.auc";

  // ---- results seen by the aggregator ----
  /**
   * {@code expresso_results_total{kind,outcome}}: results that set a task's outcome, its first
   * result or a success superseding its error. A counter of events: a task that failed and then
   * succeeded counts once under each outcome. What failed now is {@link #EXPERIMENT_TASKS}.
   */
  public static final String RESULTS = "expresso.results";
  /**
   * {@code expresso_experiment_tasks{kind,outcome}}: gauge of the tasks (of every experiment the
   * aggregator reads) by the outcome of their kept result (first success, else latest error): a
   * retry that succeeds moves its task from error to ok. No experiment label: no dashboard needs one.
   */
  public static final String EXPERIMENT_TASKS = "expresso.experiment.tasks";
  /**
   * {@code expresso_result_duplicates_total{kind}}: result records for a task already read —
   * results are produced at least once, so a task run twice (a worker lost between producing its
   * result and acknowledging the task) writes two; so does a task published again. Each task is
   * still counted once ({@code ResultMerge}); a duplicate that replaces an error counts here too.
   */
  public static final String RESULT_DUPLICATES = "expresso.result.duplicates";

  /**
   * The Prometheus names the science meters are exposed under (without histogram suffixes);
   * tests check that every dashboard query names only these or JVM/process meters.
   */
  public static final List<String> PROMETHEUS_NAMES = List.of(
      "expresso_tasks_received_total",
      "expresso_tasks_completed_total",
      "expresso_tasks_failed_total",
      "expresso_task_duration_seconds",
      "expresso_tasks_in_flight",
      "expresso_device_busy_seconds_total",
      "expresso_consumer_lag_records",
      "expresso_tasks_cancelled_total",
      "expresso_tasks_handed_back_total",
      "expresso_task_attempts_total",
      "expresso_tasks_poison_total",
      "expresso_task_loop_restarts_total",
      "expresso_device_task_age_seconds",
      "expresso_memory_pool_size_bytes",
      "expresso_memory_pool_leased_bytes",
      "expresso_memory_pool_waiting_pairs",
      "expresso_pairs_evaluated_total",
      "expresso_pairs_distinguished_total",
      "expresso_pairs_reliability_failures_total",
      "expresso_pair_t2",
      "expresso_training_epochs_total",
      "expresso_training_final_loss",
      "expresso_pair_peak_memory_bytes",
      "expresso_train_epoch",
      "expresso_train_l1",
      "expresso_train_learning_rate",
      "expresso_attack_targets_total",
      "expresso_attack_successes_total",
      "expresso_attack_auc",
      "expresso_results_total",
      "expresso_experiment_tasks",
      "expresso_result_duplicates_total");

  /** Label keys. */
  public static final String KIND = "kind";
  public static final String MODEL = "model";
  public static final String DEVICE = "device";
  public static final String REASON = "reason";
  public static final String EXPERIMENT = "experiment";
  public static final String SUITE = "suite";
  public static final String CATEGORY = "category";
  public static final String STATISTIC = "statistic";
  public static final String PATTERN = "pattern";
  public static final String SPACE = "space";
  public static final String SEED = "seed";
  public static final String SPLIT = "split";
  public static final String BUDGET = "budget";
  public static final String OUTCOME = "outcome";
  public static final String GROUP = "group";
  public static final String TOPIC = "topic";
}

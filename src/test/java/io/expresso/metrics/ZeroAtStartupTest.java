package io.expresso.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.runtime.TaskFailure;
import io.expresso.runtime.TaskKind;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A healthy system that has seen no task yet: every counter a dashboard queries whose labels form a
 * closed set (task kinds, failure reasons, outcomes, cancel reasons, partition changes) is in the
 * first scrape at 0, so a panel shows 0 rather than "No data".
 */
class ZeroAtStartupTest {

  /**
   * Dashboard series whose labels come from results (model, suite, experiment, pattern) or appear
   * once measured (lag): no closed set to register ahead. Each is named here on purpose, so a new
   * dashboard query must either exist from start-up or be added with its reason.
   */
  private static final Set<String> OPEN_LABELS = Set.of(
      "expresso_task_duration_seconds_bucket", "expresso_consumer_lag_records",
      "expresso_pair_t2_bucket", "expresso_pairs_evaluated_total", "expresso_pairs_distinguished_total",
      "expresso_pairs_reliability_failures_total", "expresso_training_epochs_total",
      "expresso_training_final_loss_sum", "expresso_training_final_loss_count",
      "expresso_pair_peak_memory_bytes_max", "expresso_pair_peak_memory_bytes_sum",
      "expresso_pair_peak_memory_bytes_count",
      "expresso_attack_targets_total", "expresso_attack_successes_total", "expresso_attack_auc",
      // labelled by the running train task's experiment, model, pattern and seed
      "expresso_train_epoch", "expresso_train_l1", "expresso_train_learning_rate");

  /** Sizes, not counts: present from start-up at their value. */
  private static final Set<String> SIZES = Set.of("expresso_memory_pool_size_bytes");

  /** What `up` builds before its first task: a device, the worker's observer, the aggregator's listener. */
  private static String startUp(Metrics m) {
    m.tasks().registerDevice("cpu:0");
    new TaskMetricsObserver(m.tasks());
    new ResultMetricsListener(m.results());
    return m.scrape();
  }

  @Test
  void everyClosedLabelSeriesADashboardQueriesIsZeroAtStartUp() throws Exception {
    try (Metrics m = new Metrics()) {
      String scrape = startUp(m);
      Set<String> queried = new TreeSet<>();
      DashboardQueries.all().forEach(q -> queried.addAll(DashboardQueries.metricNames(q.expr())));
      queried.removeIf(n -> !n.startsWith("expresso_") || OPEN_LABELS.contains(n));
      assertThat(queried).as("the dashboards query expresso counters").isNotEmpty();
      for (String name : SIZES) {
        assertThat(queried).contains(name);
        assertThat(scrape).as(name + " in the first scrape, above 0").containsPattern("(?m)^" + name + "(\\{[^}]*\\})? [1-9][0-9.E]*$");
      }
      queried.removeAll(SIZES);
      for (String name : queried) {
        assertThat(scrape).as(name + " in the first scrape, at 0").containsPattern("(?m)^" + name + "(\\{[^}]*\\})? 0\\.0$");
        assertThat(scrape).as(name + " has no non-zero series at start-up")
            .doesNotContainPattern("(?m)^" + name + "(\\{[^}]*\\})? (?!0\\.0$)");
      }
    }
  }

  @Test
  void everyKindAndFailureReasonIsZeroAtStartUp() {
    try (Metrics m = new Metrics()) {
      String scrape = startUp(m);
      for (TaskKind kind : TaskKind.values()) {
        String k = kind.label();
        assertThat(scrape).contains("expresso_tasks_received_total{kind=\"" + k + "\"} 0.0");
        assertThat(scrape).contains("expresso_tasks_completed_total{kind=\"" + k + "\"} 0.0");
        for (String reason : TaskFailure.REASONS) {
          assertThat(scrape).contains("expresso_tasks_failed_total{kind=\"" + k + "\",reason=\"" + reason + "\"} 0.0");
        }
        for (String outcome : new String[] {"ok", "error"}) {
          assertThat(scrape).contains("expresso_results_total{kind=\"" + k + "\",outcome=\"" + outcome + "\"} 0.0");
          assertThat(scrape).contains("expresso_experiment_tasks{kind=\"" + k + "\",outcome=\"" + outcome + "\"} 0.0");
        }
      }
    }
  }

  @Test
  void theClosedSetOfFailureReasonsListsEveryReasonConstant() throws Exception {
    Set<String> constants = new TreeSet<>();
    for (java.lang.reflect.Field f : TaskFailure.class.getFields()) {
      if (f.getType() == String.class && java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        constants.add((String) f.get(null));
      }
    }
    assertThat(TaskFailure.REASONS).containsExactlyInAnyOrderElementsOf(constants);
  }

  @Test
  void aFailureCountsOnTheSeriesRegisteredAtStartUp() {
    try (Metrics m = new Metrics()) {
      startUp(m);
      m.tasks().started("pair", "cpu:0");
      m.tasks().finished("pair", "cpu:0", "gin", 0.1, TaskFailure.TIMEOUT);
      assertThat(m.scrape()).contains("expresso_tasks_failed_total{kind=\"pair\",reason=\"timeout\"} 1.0")
          .contains("expresso_tasks_failed_total{kind=\"train\",reason=\"timeout\"} 0.0");
    }
  }
}

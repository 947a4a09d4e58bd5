package io.expresso.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.engine.MemoryPool;
import io.expresso.engine.MemorySource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MetricsTest {

  /** Feeds every meter once so each one has a series in the scrape. */
  static void feedAll(Metrics m) {
    TaskMeters t = m.tasks();
    t.registerDevice("cpu:0");
    t.started("pair", "cpu:0");
    t.finished("pair", "cpu:0", "1-wl", 0.02, null);
    t.started("synthetic", "cpu:0");
    t.finished("synthetic", "cpu:0", "none", 0.5, "invalid-task");
    t.lag("expresso-workers", "expresso.tasks.pair", 7);
    t.started("train", "cpu:0");
    t.cancelled("train", "cpu:0", "stopping", 12.5);
    t.handedBack(3);
    t.attempts("train", 2);
    t.poison("synthetic");
    t.restart();
    ResultMeters r = m.results();
    r.result("pair", true);
    r.duplicate("synthetic");
    r.pair("e1", "builtin", "Regular", "gin", true, true, 150.0, 12.0);
    r.pair("e1", "builtin", "Regular", "gin", false, false, 3.0, 90.0);
    r.pair("e1", "builtin", "Basic", "1-wl", true, true, Double.NaN, Double.NaN);
    r.training("pair", "gin", 20, 0.125);
    r.pairMemory("gin", 3L << 30);
    r.attack("gin", "triangle", "budgeted", new double[] {0.01, 0.05, 0.1}, new int[] {1, 2, 5},
        new boolean[] {false, true, true});
    r.trainEpoch("e2", "ppgn:layers=3,hidden=32", "triangle", 1, 7, 2.5, 3.25, 5e-4);
  }

  @Test
  void scrapeUsesTheContractNamesAndBaseUnits() {
    try (Metrics m = new Metrics()) {
      feedAll(m);
      String text = m.scrape();
      for (String name : MeterNames.PROMETHEUS_NAMES) {
        assertThat(text).as(name).containsPattern("(?m)^" + name + "(_bucket|_count|_sum|_max)?[{ ]");
      }
      assertThat(text).contains("expresso_pairs_evaluated_total{category=\"Regular\",experiment=\"e1\",model=\"gin\",suite=\"builtin\"} 2.0");
      assertThat(text).contains("expresso_pairs_distinguished_total{category=\"Regular\",experiment=\"e1\",model=\"gin\",suite=\"builtin\"} 1.0");
      assertThat(text).contains("expresso_pairs_reliability_failures_total{category=\"Regular\",experiment=\"e1\",model=\"gin\",suite=\"builtin\"} 1.0");
      // exact methods have no T² series
      assertThat(text).doesNotContain("expresso_pair_t2_count{category=\"Basic\"");
      assertThat(text).contains("expresso_pair_t2_bucket{category=\"Regular\",model=\"gin\",statistic=\"test\",suite=\"builtin\",le=\"72.34\"} 1");
      assertThat(text).contains("expresso_training_epochs_total{kind=\"pair\",model=\"gin\"} 20.0");
      assertThat(text).contains("expresso_tasks_failed_total{kind=\"synthetic\",reason=\"invalid-task\"} 1.0");
      assertThat(text).contains("expresso_tasks_in_flight{device=\"cpu:0\"} 0.0");
      assertThat(text).contains("expresso_consumer_lag_records{group=\"expresso-workers\",topic=\"expresso.tasks.pair\"} 7.0");
      assertThat(text).contains("expresso_tasks_cancelled_total{kind=\"train\",reason=\"stopping\"} 1.0");
      assertThat(text).contains("expresso_tasks_handed_back_total 3.0");
      assertThat(text).contains("expresso_device_task_age_seconds{device=\"cpu:0\"} 0.0");
      assertThat(text).contains("jvm_memory_used_bytes").contains("process_cpu_usage");
    }
  }

  @Test
  void attackAucIsTheReportsNrOverBudgetFractions() {
    try (Metrics m = new Metrics()) {
      ResultMeters r = m.results();
      double[] fractions = {0.1, 0.3};
      // two graphs: one broken at both budgets, one never → rates 0.5, 0.5 → NR 0.5
      r.attack("gin", "triangle", "budgeted", fractions, new int[] {1, 3}, new boolean[] {true, true});
      r.attack("gin", "triangle", "budgeted", fractions, new int[] {1, 3}, new boolean[] {false, false});
      double auc = m.registry().get(MeterNames.ATTACK_AUC).gauge().value();
      assertThat(auc).isEqualTo(0.5);
      // a third graph broken only at the larger budget: rates 1/3, 2/3 → trapezoid mean 0.5
      r.attack("gin", "triangle", "budgeted", fractions, new int[] {1, 3}, new boolean[] {false, true});
      assertThat(m.registry().get(MeterNames.ATTACK_AUC).gauge().value()).isEqualTo(0.5);
      assertThat(m.registry().get(MeterNames.ATTACK_SUCCESSES).tag("budget", "3").counter().count())
          .isEqualTo(2.0);
      assertThatThrownBy(() -> r.attack("gin", "t", "s", new double[] {0.1}, new int[] {1}, new boolean[0]))
          .hasMessageContaining("1 budgets for 0 outcomes");
    }
  }

  @Test
  void trainGaugesHoldTheLatestEpochPerRunningTask() {
    try (Metrics m = new Metrics()) {
      ResultMeters r = m.results();
      r.trainEpoch("e", "ppgn:layers=3,hidden=32", "triangle", 0, 1, 9.0, 8.0, 1e-3);
      r.trainEpoch("e", "ppgn:layers=3,hidden=32", "triangle", 0, 2, 6.0, 5.5, 1e-3);
      r.trainEpoch("e", "ppgn:layers=3,hidden=32", "triangle", 1, 1, 7.0, 7.5, 1e-3);
      assertThat(m.registry().get(MeterNames.TRAIN_EPOCH).tag("seed", "0").gauge().value()).isEqualTo(2.0);
      assertThat(m.registry().get(MeterNames.TRAIN_L1).tag("seed", "0").tag("split", "validation").gauge().value())
          .isEqualTo(5.5);
      assertThat(m.registry().get(MeterNames.TRAIN_L1).tag("seed", "0").tag("split", "train").gauge().value())
          .isEqualTo(6.0);
      assertThat(m.registry().get(MeterNames.TRAIN_EPOCH).tag("seed", "1").gauge().value()).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.TRAIN_LEARNING_RATE).tag("seed", "1").gauge().value()).isEqualTo(1e-3);
      assertThat(m.scrape()).contains("expresso_train_l1{experiment=\"e\",model=\"ppgn\",pattern=\"triangle\","
          + "seed=\"0\",split=\"validation\"} 5.5");
    }
  }

  @Test
  void repeatedFlipBudgetsCountAGraphOnceAndKeepTheirFractions() {
    try (Metrics m = new Metrics()) {
      ResultMeters r = m.results();
      // tiny datasets: 1% and 5% of the mean edge count are both one flip
      double[] fractions = {0.01, 0.05, 0.10, 0.25};
      int[] budgets = {1, 1, 2, 4};
      r.attack("gin", "triangle", "any", fractions, budgets, new boolean[] {true, true, true, true});
      r.attack("gin", "triangle", "any", fractions, budgets, new boolean[] {false, false, true, true});
      assertThat(m.registry().get(MeterNames.ATTACK_TARGETS).tag("budget", "1").counter().count()).isEqualTo(2.0);
      assertThat(m.registry().get(MeterNames.ATTACK_SUCCESSES).tag("budget", "1").counter().count()).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.ATTACK_AUC).gauge().value())
          .isEqualTo(io.expresso.attack.AttackCurves.normalisedAuc(fractions, new double[] {0.5, 0.5, 1, 1}));
    }
  }

  @Test
  void inFlightAndBusyTimeFollowStartAndFinish() {
    try (Metrics m = new Metrics()) {
      m.tasks().started("pair", "cpu:0");
      m.tasks().started("pair", "cpu:0");
      assertThat(m.registry().get(MeterNames.TASKS_IN_FLIGHT).gauge().value()).isEqualTo(2.0);
      m.tasks().finished("pair", "cpu:0", "1-wl", 0.25, null);
      m.tasks().finished("pair", "cpu:0", "1-wl", 0.5, "invalid-graph6");
      assertThat(m.registry().get(MeterNames.TASKS_IN_FLIGHT).gauge().value()).isEqualTo(0.0);
      assertThat(m.registry().get(MeterNames.DEVICE_BUSY).counter().count()).isEqualTo(0.75);
      assertThat(m.registry().get(MeterNames.TASKS_RECEIVED).counter().count()).isEqualTo(2.0);
      assertThat(m.registry().get(MeterNames.TASKS_COMPLETED).counter().count()).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.TASKS_FAILED).tag("reason", "invalid-graph6").counter().count())
          .isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.TASK_DURATION).timer().count()).isEqualTo(2);
      assertThat(m.registry().get(MeterNames.TASK_DURATION).timer().max(java.util.concurrent.TimeUnit.MILLISECONDS))
          .isEqualTo(500.0);
    }
  }

  @Test
  void promtoolAcceptsTheScrape() throws Exception {
    var promtool = ExternalTools.require("promtool", "prometheus");
    try (Metrics m = new Metrics()) {
      feedAll(m);
      var run = ExternalTools.run(List.of(promtool.toString(), "check", "metrics"), m.scrape(), 60);
      assertThat(run.output()).as(run.output()).doesNotContain("error");
      assertThat(run.exitCode()).as(run.output()).isZero();
    }
  }

  @Test
  void theMemoryPoolShowsWhatPairsHoldAndHowManyWait() throws Exception {
    io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry =
        new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
    MemoryPool pool = new MemoryPool(64L << 20);
    new TaskMeters(registry, LabelGuard.fromEnvironment()).memoryPool("gpu:0", pool);
    MemorySource.Lease running = pool.lease(48L << 20, () -> false);
    CompletableFuture<MemorySource.Lease> next = CompletableFuture.supplyAsync(() -> pool.lease(32L << 20, () -> false));
    for (int i = 0; i < 100 && pool.waiting() == 0; i++) {
      Thread.sleep(20);
    }
    assertThat(registry.scrape()).contains("expresso_memory_pool_size_bytes{device=\"gpu:0\"} 6.7108864E7")
        .contains("expresso_memory_pool_leased_bytes{device=\"gpu:0\"} 5.0331648E7").contains("expresso_memory_pool_waiting_pairs{device=\"gpu:0\"} 1.0");
    running.close();
    next.get(5, TimeUnit.SECONDS).close();
    assertThat(registry.scrape()).contains("expresso_memory_pool_leased_bytes{device=\"gpu:0\"} 0.0").contains("expresso_memory_pool_waiting_pairs{device=\"gpu:0\"} 0.0");
  }
}

package io.expresso.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.attack.AdversarialRule;
import io.expresso.attack.AttackCampaign;
import io.expresso.attack.AttackCurves;
import io.expresso.attack.AttackResult;
import io.expresso.attack.Budgets;
import io.expresso.attack.CountModel;
import io.expresso.attack.PerturbationSpace;
import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.count.RandomGraphs;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.metrics.MeterNames;
import io.expresso.metrics.Metrics;
import io.expresso.metrics.ResultMetricsListener;
import io.expresso.proto.v1.Result;
import io.expresso.web.LiveState;
import io.expresso.web.LiveStateListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's statistics per budget, and one NR in the report, the metric and the live page. */
class ReportBookkeepingTest {

  private static final RobustnessExperiment EXP = new RobustnessExperiment("e", Scale.TINY, List.of("ppgn"),
      List.of(Pattern.TRIANGLE), false);
  private static final String SPEC = EXP.spec("ppgn", Pattern.TRIANGLE);

  private static AttackJob job(int seed, PerturbationSpace space) {
    String model = EXP.modelId(SPEC, Pattern.TRIANGLE, "er-0.3", seed);
    return new AttackJob(model + "/attack-" + space.cliName(), model, SPEC, space, Scale.TINY, "er-0.3",
        List.of("other"), seed);
  }

  @Test
  void welchTestsUseTheExampleOfEachBudget() {
    // the attacks return a graph with 1 triangle after 1 step, with 4 (K4) after 2 or more;
    // clean graphs have none
    Graph clean = Graph.fromEdges(4, 0, 1, 1, 2, 2, 3);
    Graph one = Graph.fromEdges(4, 0, 1, 1, 2, 0, 2, 2, 3);
    Graph k4 = Graph.fromEdges(4, 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3);
    List<AttackResult> results = new ArrayList<>();
    for (int g = 0; g < 3; g++) {
      List<AttackResult.Step> steps = List.of(
          new AttackResult.Step(Graph6.encode(one), 1, 3.0, true),
          new AttackResult.Step(Graph6.encode(k4), 4, 9.0, true),
          new AttackResult.Step(Graph6.encode(k4), 4, 9.0, true));
      results.add(new AttackResult(Pattern.TRIANGLE, PerturbationSpace.ANY, 3, 1, Graph6.encode(clean), 0, 0.0,
          true, 1, steps, new double[] {0, 3, 9, 9}, 0, 0));
    }
    double[] fractions = {0.1, 0.2, 0.3};
    int[] budgets = {1, 2, 3};
    double[] success = AttackCurves.successRate(results, budgets);
    boolean[][] transfers = {{true, true, true}, {true, true, true}, {true, false, true}};
    double[] rate = AttackCurves.transferRate(results, transfers, budgets);
    AttackCampaign.Summary summary = new AttackCampaign.Summary(Pattern.TRIANGLE, PerturbationSpace.ANY, fractions,
        budgets, success, AttackCurves.normalisedAuc(fractions, success), rate,
        AttackCurves.normalisedAuc(fractions, rate), 3, results);
    AttackOutcome o = new AttackOutcome(job(0, PerturbationSpace.ANY), summary, transfers, rate,
        summary.nrTransfer(), 1);
    List<RobustnessReport.ShiftRow> rows = new RobustnessReport(EXP, List.of(), List.of(o), 1).shifts();
    assertThat(rows).hasSize(3);
    assertThat(rows).extracting(RobustnessReport.ShiftRow::budget).containsExactly(1, 2, 3);
    assertThat(rows).extracting(RobustnessReport.ShiftRow::fraction).containsExactly(0.1, 0.2, 0.3);
    // budget 1: three examples with one triangle; budget 2: two K4s (the third does not transfer there)
    assertThat(rows.get(0).n()).isEqualTo(3);
    assertThat(rows.get(0).meanAdversarial()).isEqualTo(1.0);
    assertThat(rows.get(1).n()).isEqualTo(2);
    assertThat(rows.get(1).meanAdversarial()).isEqualTo(4.0);
    assertThat(rows.get(2).n()).isEqualTo(3);
    assertThat(rows.get(2).meanAdversarial()).isEqualTo(4.0);
    assertThat(rows).allSatisfy(r -> assertThat(r.meanClean()).isZero());
  }

  @Test
  void theReportsNrIsTheMetricsAndTheLivePagesOnTheSameResults() throws Exception {
    Pattern p = Pattern.TRIANGLE;
    // blind spots at node 0: seed 0 over-counts by 0.25 per edge beyond 3, seed 1 by 0.5 beyond 2
    List<Graph> graphs = new ArrayList<>();
    for (long seed = 1; graphs.size() < 4; seed++) {
      Graph g = RandomGraphs.erdosRenyi(10, 0.3, seed);
      if (g.degree(0) <= 2) {
        graphs.add(g);
      }
    }
    Metrics metrics = new Metrics();
    ResultMetricsListener toMetrics = new ResultMetricsListener(metrics.results());
    LiveState live = new LiveState();
    LiveStateListener toPage = new LiveStateListener(live);
    List<AttackOutcome> outcomes = new ArrayList<>();
    for (int seed = 0; seed < 2; seed++) {
      int extra = seed; // the two seeds' models differ, so their curves do too
      CountModel model = gs -> gs.stream().mapToDouble(g -> InducedCounts.count(g, p)
          + (extra == 0 ? 0.25 * Math.max(0, g.degree(0) - 3) : 0.5 * Math.max(0, g.degree(0) - 2))).toArray();
      List<Graph> targets = graphs.stream().filter(g -> g.degree(0) <= 2).toList();
      // mean edges 13.5: the paper's 1, 5, 10, 25% are 1, 1, 2, 4 flips (a budget repeats)
      AttackCampaign campaign = new AttackCampaign(p, PerturbationSpace.ANY, Budgets.PAPER_FRACTIONS, 1, 0,
          AdversarialRule.paper(), seed);
      AttackCampaign.Summary s = campaign.run(targets, model, 13.5, List.of());
      assertThat(s.budgets()).containsExactly(1, 1, 2, 4);
      boolean[][] none = new boolean[s.results().size()][4];
      double[] rate = AttackCurves.transferRate(s.results(), none, s.budgets());
      AttackJob j = job(seed, PerturbationSpace.ANY);
      AttackOutcome o = new AttackOutcome(j, s, none, rate, AttackCurves.normalisedAuc(s.fractions(), rate), 1);
      outcomes.add(o);
      Result r = Result.newBuilder().setExperimentId("e").setTaskId("attack:" + j.attackId())
          .setAttack(RobustProtos.result(o, JobRunner.RULE.delta())).build();
      toMetrics.onResult(r);
      toPage.onResult(r);
    }
    assertThat(outcomes.get(0).summary().attacked()).isEqualTo(outcomes.get(1).summary().attacked());
    RobustnessReport.AucRow row = new RobustnessReport(EXP, List.of(), outcomes, 1).auc().stream()
        .filter(a -> a.space().equals("any")).findFirst().orElseThrow();
    double reportNr = row.nr().mean();
    assertThat(reportNr).isBetween(0.0, 1.0);
    assertThat(outcomes.get(0).summary().nr()).isNotEqualTo(outcomes.get(1).summary().nr());
    // same number of attacked graphs per seed: the mean of the seeds' NR is the pooled curve's NR
    double metricNr = metrics.registry().get(MeterNames.ATTACK_AUC).gauge().value();
    assertThat(metricNr).isCloseTo(reportNr, within(1e-12));
    JsonNode attack = new ObjectMapper().readTree(live.json(0)).get("experiments").get(0).get("attacks").get(0);
    assertThat(attack.get("nr").asDouble()).isCloseTo(reportNr, within(1e-12));
    // each graph counted once per budget, though 1% and 5% are both one flip
    int attacked = outcomes.get(0).summary().attacked() * 2;
    assertThat(attack.get("attacked")).hasSize(4).allSatisfy(n -> assertThat(n.asInt()).isEqualTo(attacked));
    assertThat(metrics.registry().get(MeterNames.ATTACK_TARGETS).tag("budget", "1").counter().count())
        .isEqualTo(attacked);
    metrics.close();
  }
}

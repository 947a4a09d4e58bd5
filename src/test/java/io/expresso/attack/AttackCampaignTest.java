package io.expresso.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.count.RandomGraphs;
import io.expresso.graph.Graph;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttackCampaignTest {

  @Test
  void campaignSummarisesSuccessAndTransferOverBudgets() {
    Pattern p = Pattern.TRIANGLE;
    List<Graph> graphs = List.of(RandomGraphs.paperSbm(1), RandomGraphs.paperSbm(2), RandomGraphs.paperSbm(6));
    // blind spot: over-counts by 0.25 per edge at node 0 beyond 3 (exact in binary, so the rule's
    // boundaries are hit exactly); graphs whose node 0 already has 5+ edges are predicted wrongly
    CountModel model = gs -> gs.stream()
        .mapToDouble(g -> InducedCounts.count(g, p) + 0.25 * Math.max(0, g.degree(0) - 3)).toArray();
    CountModel exact = gs -> gs.stream().mapToDouble(g -> InducedCounts.count(g, p)).toArray();
    // mean edges 100: fractions 1%, 2%, 3% -> budgets 1, 2, 3 flips
    AttackCampaign campaign = new AttackCampaign(p, PerturbationSpace.ANY, new double[] {0.01, 0.02, 0.03},
        4, 0, AdversarialRule.paper(), 0);
    AttackCampaign.Summary s = campaign.run(graphs, model, 100, List.of(exact));
    assertThat(s.budgets()).containsExactly(1, 2, 3);
    int attacked = 0;
    int[] hits = new int[3];
    for (Graph g : graphs) {
      double clean = 0.25 * Math.max(0, g.degree(0) - 3);
      if (clean < 0.5) {
        attacked++;
        for (int b = 0; b < 3; b++) {
          double loss = 0.25 * Math.max(0, g.degree(0) + b + 1 - 3); // b + 1 edges added at node 0
          if (loss >= 0.5 && (clean == 0 || loss > 2 * clean)) {
            hits[b]++;
          }
        }
      }
    }
    assertThat(attacked).as("the fixture mixes attacked and skipped graphs").isEqualTo(2); // node 0 has degree 4, 2 and 6
    assertThat(s.attacked()).isEqualTo(attacked);
    for (int b = 0; b < 3; b++) {
      assertThat(s.successRate()[b]).as("budget %d", b + 1).isCloseTo((double) hits[b] / attacked, within(1e-12));
    }
    assertThat(s.successRate()).containsExactly(0.0, 0.5, 1.0); // degrees 4 and 2 need 2 and 3 flips
    assertThat(s.nr()).isCloseTo(AttackCurves.normalisedAuc(new double[] {0.01, 0.02, 0.03}, s.successRate()), within(1e-12));
    // the exact model is never fooled, so nothing transfers
    assertThat(s.transferRate()).containsOnly(0.0);
    assertThat(s.nrTransfer()).isZero();
  }
}

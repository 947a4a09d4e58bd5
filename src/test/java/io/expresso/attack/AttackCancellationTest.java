package io.expresso.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.count.RandomGraphs;
import io.expresso.graph.Graph;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Beam searches and campaigns stopped by a cancellation token. The model is exact, so it is never
 * fooled and a search runs its whole budget unless cancelled; promptness is asserted on the model
 * calls made (one for the clean graph, one per step), never on time.
 */
class AttackCancellationTest {

  private static final Graph SBM = RandomGraphs.paperSbm(42);

  /** The exact triangle count, counting its batched calls. */
  private static CountModel exactCounting(AtomicInteger calls) {
    return graphs -> {
      calls.incrementAndGet();
      return graphs.stream().mapToDouble(g -> InducedCounts.count(g, Pattern.TRIANGLE)).toArray();
    };
  }

  @Test
  void beamSearchStopsBeforeTheNextStepOnceTheTokenIsSet() {
    AtomicInteger calls = new AtomicInteger();
    AttackConfig config = AttackConfig.paper(Pattern.TRIANGLE, PerturbationSpace.ANY, 20);
    // true once the clean graph and 3 steps are scored
    assertThatThrownBy(() -> new BeamSearchAttack(config).attack(SBM, exactCounting(calls), () -> calls.get() > 3))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("step 4 of 20");
    assertThat(calls).as("clean graph + 3 steps, none after").hasValue(4);
  }

  @Test
  void beamSearchChecksBetweenTheExpansionsOfOneStep() {
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger queries = new AtomicInteger();
    AttackConfig config = AttackConfig.paper(Pattern.TRIANGLE, PerturbationSpace.ANY, 20);
    // queries: step 1 member 1, then step 2 members 1, 2, 3 — the 5th (member 4 of 10) says stop
    assertThatThrownBy(() -> new BeamSearchAttack(config).attack(SBM, exactCounting(calls),
        () -> queries.incrementAndGet() > 4))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("step 2 of 20, before expanding member 4 of 10");
    assertThat(calls).as("clean graph + step 1; step 2 never scored").hasValue(2);
  }

  @Test
  void campaignStopsBeforeTheNextTargetGraph() {
    AtomicInteger calls = new AtomicInteger();
    List<Graph> graphs = List.of(RandomGraphs.paperSbm(1), RandomGraphs.paperSbm(2), RandomGraphs.paperSbm(3),
        RandomGraphs.paperSbm(4), RandomGraphs.paperSbm(5));
    // mean edges 100, fraction 1%: budget 1, so two model calls per graph (clean, one step)
    AttackCampaign campaign = new AttackCampaign(Pattern.TRIANGLE, PerturbationSpace.ANY, new double[] {0.01},
        4, 0, AdversarialRule.paper(), 0);
    assertThatThrownBy(() -> campaign.run(graphs, exactCounting(calls), 100, List.of(), () -> calls.get() >= 4))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("before graph 3 of 5");
    assertThat(calls).as("two graphs attacked, the third not started").hasValue(4);
  }

  @Test
  void anUncancelledSearchIsTheSameSearch() {
    AttackConfig config = AttackConfig.paper(Pattern.TRIANGLE, PerturbationSpace.ANY, 3);
    AtomicInteger calls = new AtomicInteger();
    AttackResult plain = new BeamSearchAttack(config).attack(SBM, exactCounting(calls));
    AttackResult withToken = new BeamSearchAttack(config).attack(SBM, exactCounting(calls), () -> false);
    assertThat(withToken.lossHistory()).containsExactly(plain.lossHistory());
    assertThat(withToken.adversarialGraph6()).isEqualTo(plain.adversarialGraph6());
    assertThat(withToken.perturbationsEvaluated()).isEqualTo(plain.perturbationsEvaluated());
  }
}

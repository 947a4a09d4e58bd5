package io.expresso.robust;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.attack.AttackCampaign;
import io.expresso.count.Pattern;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** On an executor that overlaps phases, heads and attacks start once the models they need are trained. */
class OverlappedPhasesTest {

  @Test
  @Timeout(30)
  void headsAndAttacksStartWhileTheOtherModelsStillTrain() throws Exception {
    RobustnessExperiment exp = new RobustnessExperiment("e", Scale.TINY, List.of("i2gnn"), List.of(Pattern.TRIANGLE), true);
    List<String> d1 = exp.trainJobs().stream().map(TrainJob::modelId).filter(id -> id.contains("/er-0.3/")).toList();
    assertThat(d1).hasSize(2); // tiny: er-0.3 (attacked, and d1 of the heads) and er-0.8, two seeds each
    CountDownLatch phase2Started = new CountDownLatch(2);
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    List<List<String>> firstPhase = new ArrayList<>();
    StudyExecutor scripted = new StudyExecutor() {
      @Override
      public List<TrainOutcome> train(List<TrainJob> jobs, Consumer<TrainOutcome> done) {
        boolean heads = jobs.stream().anyMatch(j -> j.headOf() != null);
        if (heads) {
          phase2Started.countDown();
        } else {
          firstPhase.add(jobs.stream().map(TrainJob::modelId).toList());
        }
        List<TrainOutcome> out = new ArrayList<>();
        for (TrainJob j : jobs) {
          if (!heads && !d1.contains(j.modelId())) {
            // a d2 model: phase 2 must have started before it ends (it needs none of them)
            try {
              assertThat(phase2Started.await(10, TimeUnit.SECONDS)).as("phase 2 started beside phase 1").isTrue();
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
          }
          TrainOutcome o = new TrainOutcome(j, Map.of(), 3, 0.5, 2, 0.6, 10, 0.1);
          events.add("trained " + j.modelId());
          done.accept(o);
          out.add(o);
        }
        return out;
      }

      @Override
      public List<AttackOutcome> attack(List<AttackJob> jobs, Consumer<AttackOutcome> done) {
        phase2Started.countDown();
        List<AttackOutcome> out = new ArrayList<>();
        for (AttackJob j : jobs) {
          assertThat(events).contains("trained " + j.modelId());
          AttackCampaign.Summary s = new AttackCampaign.Summary(Pattern.TRIANGLE, j.space(), new double[] {0.5},
              new int[] {1}, new double[] {0}, 0, new double[] {0}, 0, 0, List.of());
          out.add(new AttackOutcome(j, s, new boolean[0][], new double[] {0}, 0, 0.1));
        }
        return out;
      }

      @Override
      public boolean overlapsPhases() {
        return true;
      }

      @Override
      public void close() {}
    };
    RobustnessReport report = exp.run(scripted, line -> {});
    assertThat(firstPhase).hasSize(1);
    assertThat(firstPhase.get(0).subList(0, 2)).as("the models phase 2 needs are published first")
        .containsExactlyInAnyOrderElementsOf(d1);
    List<String> expected = new ArrayList<>(exp.trainJobs().stream().map(TrainJob::modelId).toList());
    expected.addAll(exp.headJobs().stream().map(TrainJob::modelId).toList());
    assertThat(report.trained()).extracting(o -> o.job().modelId()).as("outcomes in job order").isEqualTo(expected);
    assertThat(report.attacks()).hasSize(exp.attackJobs().size());
  }
}

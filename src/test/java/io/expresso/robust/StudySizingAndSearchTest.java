package io.expresso.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.cli.Main;
import io.expresso.count.CountingSplit;
import io.expresso.count.Pattern;
import io.expresso.report.RobustnessWriter;
import io.expresso.train.CountRecipe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** {@code --graphs/--seeds/--max-epochs} travel in every job; {@code --search} trains a grid and attacks its best point. */
class StudySizingAndSearchTest {

  @Test
  void sizeOverridesTravelInEveryJobAndWorkersHonourThem() {
    RobustnessExperiment exp = new RobustnessExperiment("e", Scale.TINY, List.of("gin"), List.of(Pattern.TRIANGLE),
        true, new RobustnessExperiment.Sizes(100, 3, 5));
    assertThat(exp.seeds()).isEqualTo(3);
    assertThat(exp.trainJobs()).hasSize(3 * 2).allSatisfy(j -> {
      assertThat(j.graphs()).isEqualTo(100);
      assertThat(j.maxEpochs()).isEqualTo(5);
      assertThat(j.recipe("gin").maxEpochs()).isEqualTo(5);
      assertThat(RobustProtos.job(RobustProtos.message(j))).isEqualTo(j); // as the worker reads it
    });
    assertThat(exp.headJobs()).hasSize(3).allSatisfy(j -> assertThat(j.datasetSize()).isEqualTo(100));
    assertThat(exp.attackJobs()).hasSize(3 * 3).allSatisfy(j -> {
      assertThat(j.datasetSize()).isEqualTo(100);
      assertThat(j.transferTo()).hasSize(2);
      assertThat(RobustProtos.job(RobustProtos.message(j))).isEqualTo(j);
    });
    CountingSplit data = StudyData.get("er-0.3", 100);
    assertThat(data.train().graphs().size() + data.validation().graphs().size() + data.test().graphs().size())
        .isEqualTo(100);
    assertThat(StudyData.get("er-0.3", Scale.TINY).test().graphs()).hasSize(100); // 200 graphs: a cache of its own
    // without overrides, the scale's sizes
    RobustnessExperiment plain = new RobustnessExperiment("e", Scale.TINY, List.of("gin"), List.of(Pattern.TRIANGLE), false);
    assertThat(plain.trainJobs()).hasSize(Scale.TINY.seeds()).allSatisfy(j -> {
      assertThat(j.datasetSize()).isEqualTo(Scale.TINY.datasetSize());
      assertThat(j.recipe("gin").maxEpochs()).isEqualTo(Scale.TINY.epochs());
    });
    assertThatThrownBy(() -> new RobustnessExperiment.Sizes(5, 0, 0)).hasMessageContaining("at least 10");
    // a rate and batch of the command line's travel in every train job and name its models
    RobustnessExperiment tuned = new RobustnessExperiment("e", Scale.TINY, List.of("gin"), List.of(Pattern.TRIANGLE),
        false, new RobustnessExperiment.Sizes(100, 2, 5, 3e-4f, 32));
    assertThat(tuned.trainJobs()).hasSize(2).allSatisfy(j -> {
      assertThat(j.recipe("gin").learningRate()).isEqualTo(3e-4f);
      assertThat(j.recipe("gin").batchSize()).isEqualTo(32);
      assertThat(j.modelId()).endsWith("/lr-3.0E-4-batch-32");
      assertThat(RobustProtos.job(RobustProtos.message(j))).isEqualTo(j);
    });
    assertThat(tuned.attackJobs()).allSatisfy(j -> assertThat(j.modelId()).endsWith("/lr-3.0E-4-batch-32"));
    assertThat(new RobustnessExperiment("e", Scale.TINY, List.of("gin"), List.of(Pattern.TRIANGLE), false,
        new RobustnessExperiment.Sizes(100, 2, 5, 0f, 32)).trainJobs().get(0).modelId()).endsWith("/batch-32");
    assertThatThrownBy(() -> new RobustnessExperiment("e", Scale.TINY, List.of("gin"), List.of(Pattern.TRIANGLE), false,
        new RobustnessExperiment.Sizes(100, 2, 5, 3e-4f, 0), SearchGrid.of(Scale.TINY), Map.of())).hasMessageContaining("--search chooses");
    assertThat(Main.execute("experiment", "robustness", "--embedded", "--learning-rate", "2")).isEqualTo(2); // "--learning-rate must be in (0, 1)"
    assertThat(Main.execute("experiment", "robustness", "--embedded", "--graphs", "5")).isEqualTo(2);
  }

  @Test
  void smallKeepsAThirdOfTheRecipesPatienceAndItsLearningRate() {
    CountRecipe small = Scale.SMALL.recipe("ppgn", Pattern.TRIANGLE);
    CountRecipe recipe = CountRecipe.of("ppgn", Pattern.TRIANGLE);
    assertThat(small.learningRate()).isEqualTo(recipe.learningRate());
    assertThat(small.stopPatience()).isEqualTo(7); // Campi et al.'s 20 x sqrt(60 / 500)
    assertThat(small.plateauPatience()).isEqualTo(7);
    // Campi et al.'s recipe: raw counts, stop after 20 epochs, plateau 0.5 / 20, Adam from 1e-3 (inside their grid)
    assertThat(recipe.stopPatience()).isEqualTo(20);
    assertThat(recipe.plateauPatience()).isEqualTo(20);
    assertThat(recipe.maxEpochs()).isEqualTo(500);
    assertThat(recipe.settings(0, "cpu").rawTargets()).isTrue();
    assertThat(recipe.settings(0, "cpu").plateauFactor()).isEqualTo(0.5f);
    assertThat(Scale.SMALL.recipe("i2gnn", Pattern.TRIANGLE).learningRate()).isEqualTo(1e-3f);
    assertThat(recipe.learningRate()).isEqualTo(1e-3f);
  }

  @Test
  void theSearchTrainsEveryGridPointAndAttacksTheOneWithTheBestMeanValidationL1() {
    RobustnessExperiment exp = new RobustnessExperiment("s", Scale.TINY, List.of("gin:hidden=8,layers=2"),
        List.of(Pattern.TRIANGLE), false, new RobustnessExperiment.Sizes(100, 2, 2), SearchGrid.of(Scale.TINY), Map.of());
    List<TrainJob> grid = exp.searchJobs();
    assertThat(grid).hasSize(4 * 2); // rate 0.01, 0.003 x batch 8, 16 at width 16, depth 2; 2 seeds
    assertThat(grid.stream().map(TrainJob::modelId).distinct()).hasSize(8);
    assertThat(grid).allSatisfy(j -> {
      assertThat(j.spec()).isEqualTo("gin:in=1,hidden=16,out=8,layers=2"); // channels [1, 16, 8]: one input channel
      assertThat(j.recipe("gin").learningRate()).isEqualTo(j.learningRate()); // the worker trains the point
      assertThat(j.recipe("gin").batchSize()).isEqualTo(j.batchSize());
      assertThat(RobustProtos.job(RobustProtos.message(j))).isEqualTo(j);
    });

    List<List<TrainJob>> trainPhases = new ArrayList<>();
    List<AttackJob> attacked = new ArrayList<>();
    RobustnessReport report;
    try (LocalExecutor local = new LocalExecutor("cpu")) {
      StudyExecutor recording = new StudyExecutor() {
        @Override
        public List<TrainOutcome> train(List<TrainJob> jobs, Consumer<TrainOutcome> done) {
          trainPhases.add(jobs);
          return local.train(jobs, done);
        }

        @Override
        public List<AttackOutcome> attack(List<AttackJob> jobs, Consumer<AttackOutcome> done) {
          attacked.addAll(jobs);
          return local.attack(jobs, done);
        }

        @Override
        public void close() {}
      };
      report = exp.run(recording, line -> {});
    }
    List<RobustnessExperiment.SearchRow> rows = report.search();
    assertThat(rows).hasSize(4);
    assertThat(rows.stream().filter(RobustnessExperiment.SearchRow::selected)).hasSize(1);
    RobustnessExperiment.SearchRow best = rows.stream().filter(RobustnessExperiment.SearchRow::selected).findFirst()
        .orElseThrow();
    assertThat(rows).allSatisfy(r -> {
      assertThat(r.validationL1().n()).isEqualTo(2);
      assertThat(r.validationL1().mean()).isGreaterThanOrEqualTo(best.validationL1().mean());
    });
    assertThat(trainPhases.get(0)).isEqualTo(grid);
    assertThat(trainPhases.get(1)).as("the selected point's models are not trained again").isEmpty();
    assertThat(attacked).hasSize(2 * 3).allSatisfy(a -> {
      assertThat(a.modelId()).endsWith("/" + best.point().suffix());
      assertThat(a.spec()).isEqualTo(best.point().spec());
    });
    assertThat(report.trained()).hasSize(2).allSatisfy(o -> {
      assertThat(o.job().learningRate()).isEqualTo(best.point().learningRate());
      assertThat(o.job().batchSize()).isEqualTo(best.point().batchSize());
    });
    assertThat(report.errors()).hasSize(1);
    assertThat(report.errors().get(0).l1().n()).isEqualTo(2);
    assertThat(RobustnessWriter.markdown(report)).contains("## Hyper-parameter search", "| yes |");
  }
}

package io.expresso.robust;

import io.expresso.robust.fleet.StudyTasks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.attack.Budgets;
import io.expresso.attack.PerturbationSpace;
import io.expresso.count.Pattern;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.TrainTask;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The shared job factory: ids, task messages and the typed jobs and outcomes the worker reads back. */
class StudyJobsTest {

  private static final StoredModel MODEL = new StoredModel("e/ppgn/triangle/er-0.3/s0", "ppgn:hidden=16,layers=2",
      Pattern.TRIANGLE, Optional.empty());

  @Test
  void publishedTrainJobsAreTheExperimentsOwn() {
    RobustnessExperiment exp = new RobustnessExperiment("e", Scale.TINY, List.of("ppgn"), List.of(Pattern.TRIANGLE),
        false);
    TrainJob fromExperiment = exp.trainJobs().get(1);
    String spec = StudyJobs.resolveSpec("ppgn", Pattern.TRIANGLE, Scale.TINY);
    TrainJob byHand = StudyJobs.train("e", spec, Pattern.TRIANGLE, "er-0.3", Scale.TINY, 1);
    assertThat(byHand).isEqualTo(fromExperiment);
    assertThat(byHand.modelId()).isEqualTo("e/" + spec + "/triangle/er-0.3/s1");
    TrainTask task = StudyTasks.trainTask("e", byHand);
    assertThat(task.getHeader().getTaskId()).isEqualTo("train:e/" + spec + "/triangle/er-0.3/s1");
    assertThat(task.getHeader().getExperimentId()).isEqualTo("e");
    assertThat(task.getJob().getModelId()).isEqualTo(byHand.modelId());
    assertThat(StudyJobs.job(task)).isEqualTo(byHand);
  }

  @Test
  void publishedTrainJobsCarryTheCommandLinesSizesAsTheExperimentDoes() {
    RobustnessExperiment.Sizes sizes = new RobustnessExperiment.Sizes(500, 0, 30, 0.01f, 64);
    RobustnessExperiment exp = new RobustnessExperiment("e", Scale.PAPER, List.of("i2gnn"), List.of(Pattern.TRIANGLE),
        false, sizes);
    String spec = StudyJobs.resolveSpec("i2gnn", Pattern.TRIANGLE, Scale.PAPER);
    TrainJob byHand = StudyJobs.train("e", spec, Pattern.TRIANGLE, "sbm", Scale.PAPER, 0, sizes);
    assertThat(byHand).isEqualTo(exp.trainJobs().get(0));
    assertThat(byHand.modelId()).isEqualTo("e/" + spec + "/triangle/sbm/s0/lr-0.01-batch-64");
    assertThat(byHand.datasetSize()).isEqualTo(500);
    assertThat(byHand.recipe("i2gnn").maxEpochs()).isEqualTo(30);
    assertThat(byHand.recipe("i2gnn").batchSize()).isEqualTo(64);
    // the cap travels in the task, so the worker trains at most that many epochs
    assertThat(StudyJobs.job(StudyTasks.trainTask("e", byHand)).maxEpochs()).isEqualTo(30);
  }

  @Test
  void recipesLiveWithTheModelAndThePatternAndScalesOnlyCapThem() {
    // I²-GNN as in its paper: width 64, 5 layers, radius = the pattern's diameter
    assertThat(StudyJobs.resolveSpec("i2gnn", Pattern.TRIANGLE, Scale.PAPER)).isEqualTo("i2gnn:hidden=64,layers=5,hops=1");
    assertThat(StudyJobs.resolveSpec("i2gnn", Pattern.FOUR_CYCLE, Scale.PAPER)).isEqualTo("i2gnn:hidden=64,layers=5,hops=2");
    assertThat(StudyJobs.resolveSpec("i2gnn", Pattern.CHORDAL_CYCLE, Scale.PAPER)).endsWith(",hops=2");
    assertThat(StudyJobs.resolveSpec("i2gnn", Pattern.THREE_PATH, Scale.PAPER)).endsWith(",hops=3");
    // the tiny demo caps width and depth, not the radius
    assertThat(StudyJobs.resolveSpec("i2gnn", Pattern.FOUR_CYCLE, Scale.TINY)).isEqualTo("i2gnn:hidden=16,layers=2,hops=2");
    // an explicit spec is the user's; I²-GNN without hops gets the pattern's radius
    assertThat(StudyJobs.resolveSpec("i2gnn:hidden=8,layers=1", Pattern.THREE_PATH, Scale.TINY))
        .isEqualTo("i2gnn:hidden=8,layers=1,hops=3");
    assertThat(StudyJobs.resolveSpec("ppgn:layers=4,hidden=128", Pattern.TRIANGLE, Scale.TINY))
        .isEqualTo("ppgn:in=1,hidden=128,d=64,layers=4,depth=2"); // an explicit spec is kept as written
    // training settings: the recipe's, the epochs capped by the scale
    io.expresso.train.CountRecipe paper = Scale.PAPER.recipe("ppgn", Pattern.TRIANGLE);
    assertThat(paper.maxEpochs()).isEqualTo(500);
    assertThat(paper.plateauPatience()).isEqualTo(20);
    assertThat(Scale.TINY.recipe("ppgn", Pattern.TRIANGLE).maxEpochs()).isEqualTo(Scale.TINY.epochs());
    assertThat(Scale.PAPER.defaultPatterns()).hasSize(8);
    assertThat(Scale.TINY.defaultPatterns()).containsExactly(Pattern.TRIANGLE);
  }

  @Test
  void modelIdsIdentifyTheFullSpec() {
    String a = StudyJobs.modelId("e", "ppgn:layers=2,hidden=16", Pattern.TRIANGLE, "sbm", 0);
    String b = StudyJobs.modelId("e", "ppgn:layers=3,hidden=16", Pattern.TRIANGLE, "sbm", 0);
    assertThat(a).isNotEqualTo(b).startsWith("e/ppgn:").endsWith("/triangle/sbm/s0");
    // the same spec written differently is the same model
    assertThat(StudyJobs.modelId("e", "PPGN:hidden=16, layers=2", Pattern.TRIANGLE, "sbm", 0)).isEqualTo(a);
    RobustnessExperiment two = new RobustnessExperiment("e", Scale.TINY,
        List.of("ppgn:layers=2,hidden=16", "ppgn:layers=3,hidden=16"), List.of(Pattern.TRIANGLE), false);
    assertThat(two.trainJobs().stream().map(TrainJob::modelId).distinct()).hasSize(2 * Scale.TINY.seeds());
    assertThat(two.attackJobs().stream().map(AttackJob::attackId).distinct()).hasSize(2 * 3 * Scale.TINY.seeds());
  }

  @Test
  void attackJobsRoundTripWithTheirBeamAndBudgets() {
    AttackJob j = StudyJobs.attack(MODEL, PerturbationSpace.COUNT_PRESERVING, Scale.TINY, "er-0.3", List.of(), 7, 4,
        new double[] {0.02, 0.5});
    assertThat(j.attackId()).isEqualTo("e/ppgn/triangle/er-0.3/s0/attack-count/beam-4/budgets-0.02-0.5/seed-7");
    assertThat(j.beamWidth()).isEqualTo(4);
    AttackTask task = StudyTasks.attackTask("x", j);
    assertThat(task.getJob().getSpec()).isEqualTo(MODEL.spec());
    assertThat(task.getJob().getBeam()).isEqualTo(4);
    AttackJob back = StudyJobs.job(task);
    assertThat(back).isEqualTo(j);
    assertThat(back.budgetFractions()).containsExactly(0.02, 0.5);
  }

  @Test
  void defaultsAreThePapersAndJobsWithoutBeamOrBudgetsReadAsThePapers() {
    AttackJob d = StudyJobs.attack(MODEL, PerturbationSpace.ANY, Scale.SMALL, "sbm", List.of(), 0, 0, null);
    assertThat(d.attackId()).isEqualTo(MODEL.key() + "/attack-any"); // the experiment's id for the same attack
    assertThat(d.beamWidth()).isEqualTo(1);
    assertThat(d.budgetFractions()).containsExactly(Budgets.PAPER_FRACTIONS);
    AttackJob old = RobustProtos.job(io.expresso.proto.v1.AttackJob.newBuilder().setAttackId("a").setModelId("m")
        .setSpec("ppgn:hidden=16,layers=2").setSpace("subgraph").setScale("small").setDataset("sbm")
        .addTransferTo("m2").setSeed(3).build());
    assertThat(old.beamWidth()).isEqualTo(Scale.SMALL.beamWidth());
    assertThat(old.budgetFractions()).containsExactly(Budgets.PAPER_FRACTIONS);
    assertThat(old.transferTo()).containsExactly("m2");
  }

  @Test
  void outcomesTravelTypedAndComeBackWhole() {
    AttackJob j = StudyJobs.attack(MODEL, PerturbationSpace.ANY, Scale.TINY, "er-0.3", List.of("m2"), 0, 0, null);
    io.expresso.attack.AttackResult g = new io.expresso.attack.AttackResult(Pattern.TRIANGLE, PerturbationSpace.ANY, 3, 1,
        "Bw", 1, 1.2, true, 2, List.of(new io.expresso.attack.AttackResult.Step("Bo", 1, 1.1, false),
            new io.expresso.attack.AttackResult.Step("Bs", 0, 0.9, true)),
        new double[] {0.2, 0.5, 1.4}, 17, 9);
    io.expresso.attack.AttackCampaign.Summary s = new io.expresso.attack.AttackCampaign.Summary(Pattern.TRIANGLE,
        PerturbationSpace.ANY, new double[] {0.1, 0.5}, new int[] {1, 3}, new double[] {0, 1}, 0.5, new double[0],
        Double.NaN, 1, List.of(g));
    AttackOutcome o = new AttackOutcome(j, s, new boolean[][] {{false, true}}, new double[] {0, 1}, 0.5, 2.5);
    io.expresso.proto.v1.AttackResult r = RobustProtos.result(o, 1.0).build();
    AttackOutcome back = RobustProtos.outcome(r);
    assertThat(back.job()).isEqualTo(j);
    assertThat(back.summary().results()).hasSize(1);
    io.expresso.attack.AttackResult gb = back.summary().results().get(0);
    assertThat(gb).usingRecursiveComparison().isEqualTo(g);
    assertThat(back.transfers()).isDeepEqualTo(new boolean[][] {{false, true}});
    assertThat(r.getOutcomes(0).getAdversarialList()).containsExactly(false, true); // budget 1: step 1; budget 3: the last step
    assertThat(back.transferRate()).containsExactly(0, 1);
    assertThat(back.summary().budgets()).containsExactly(1, 3);
    assertThat(back.seconds()).isEqualTo(2.5);
    assertThat(r.getDelta()).isEqualTo(1.0);

    TrainJob t = StudyJobs.train("e", "ppgn:hidden=16,layers=2", Pattern.TRIANGLE, "er-0.3", Scale.TINY, 1);
    TrainOutcome to = new TrainOutcome(t, java.util.Map.of("er-0.3", new io.expresso.train.CountErrors(0.5, 0.25, 40)),
        12, 0.1, 9, 0.4, 33, 7.5);
    assertThat(RobustProtos.outcome(RobustProtos.result(to).build())).isEqualTo(to);
  }

  @Test
  void jobsWithoutARequiredFieldAreRefusedNamingIt() {
    assertThatThrownBy(() -> RobustProtos.job(io.expresso.proto.v1.TrainJob.newBuilder().setModelId("m").build()))
        .hasMessageContaining("train job spec is missing");
    assertThatThrownBy(() -> RobustProtos.job(io.expresso.proto.v1.AttackJob.newBuilder().setAttackId("a").setModelId("m")
        .setSpec("ppgn").setSpace("any").setScale("huge").setDataset("sbm").build()))
        .hasMessageContaining("unknown scale 'huge'");
  }

  @Test
  void badJobsAreRefusedNamingTheValue() {
    assertThatThrownBy(() -> StudyJobs.attack(MODEL, PerturbationSpace.ANY, Scale.TINY, "er-0.3", List.of(), 0, 0,
        new double[] {0.1, 0.05})).hasMessageContaining("budgets must increase: 0.1 then 0.05");
    assertThatThrownBy(() -> StudyJobs.attack(MODEL, PerturbationSpace.ANY, Scale.TINY, "cora", List.of(), 0, 0,
        null)).hasMessageContaining("unknown dataset 'cora'");
    assertThatThrownBy(() -> StudyJobs.resolveSpec("transformer", Pattern.TRIANGLE, Scale.TINY)).hasMessageContaining("transformer");
  }
}

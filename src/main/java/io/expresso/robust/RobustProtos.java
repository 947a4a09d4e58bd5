package io.expresso.robust;

import io.expresso.attack.AttackCampaign;
import io.expresso.attack.AttackResult;
import io.expresso.attack.PerturbationSpace;
import io.expresso.count.Pattern;
import io.expresso.proto.v1.DatasetErrors;
import io.expresso.proto.v1.AttackStep;
import io.expresso.proto.v1.GraphOutcome;
import io.expresso.proto.v1.TrainResult;
import io.expresso.train.CountErrors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The study's jobs and outcomes to and from their protobuf messages ({@code TrainJob},
 * {@code AttackJob} in tasks, {@code TrainResult}, {@code AttackResult} in results): the typed
 * contract between the study and the workers, so that nothing travels as an unchecked string.
 */
public final class RobustProtos {

  private RobustProtos() {}

  public static io.expresso.proto.v1.TrainJob message(TrainJob j) {
    return io.expresso.proto.v1.TrainJob.newBuilder().setModelId(j.modelId()).setSpec(j.spec())
        .setPattern(j.pattern().cliName()).setDataset(j.dataset()).setScale(j.scale().cliName()).setSeed(j.seed())
        .setHeadOf(j.headOf() == null ? "" : j.headOf()).addAllTestOn(j.testOn()).setGraphs(j.graphs())
        .setMaxEpochs(j.maxEpochs()).setLearningRate(j.learningRate()).setBatchSize(j.batchSize()).build();
  }

  /** @throws IllegalArgumentException naming a missing or bad field */
  public static TrainJob job(io.expresso.proto.v1.TrainJob m) {
    return new TrainJob(required(m.getModelId(), "train job model_id"), required(m.getSpec(), "train job spec"),
        Pattern.fromName(required(m.getPattern(), "train job pattern")), required(m.getDataset(), "train job dataset"),
        Scale.fromName(required(m.getScale(), "train job scale")), m.getSeed(),
        m.getHeadOf().isEmpty() ? null : m.getHeadOf(), m.getTestOnList(), m.getGraphs(), m.getMaxEpochs(),
        (float) m.getLearningRate(), m.getBatchSize());
  }

  public static io.expresso.proto.v1.AttackJob message(AttackJob j) {
    io.expresso.proto.v1.AttackJob.Builder b = io.expresso.proto.v1.AttackJob.newBuilder().setAttackId(j.attackId())
        .setModelId(j.modelId()).setSpec(j.spec()).setSpace(j.space().cliName()).setScale(j.scale().cliName())
        .setDataset(j.dataset()).addAllTransferTo(j.transferTo()).setSeed(j.seed()).setBeam(j.beam())
        .setGraphs(j.graphs());
    for (double f : j.budgetFractions()) {
      b.addBudgetFractions(f);
    }
    return b.build();
  }

  /** @throws IllegalArgumentException naming a missing or bad field */
  public static AttackJob job(io.expresso.proto.v1.AttackJob m) {
    double[] fractions = m.getBudgetFractionsCount() == 0 ? null
        : m.getBudgetFractionsList().stream().mapToDouble(Double::doubleValue).toArray();
    return new AttackJob(required(m.getAttackId(), "attack job attack_id"), required(m.getModelId(), "attack job model_id"),
        required(m.getSpec(), "attack job spec"), PerturbationSpace.fromName(required(m.getSpace(), "attack job space")),
        Scale.fromName(required(m.getScale(), "attack job scale")), required(m.getDataset(), "attack job dataset"),
        m.getTransferToList(), m.getSeed(), m.getBeam(), fractions, m.getGraphs());
  }

  /** The result of a train job: the summary fields people and metrics read, and the whole outcome. */
  public static TrainResult.Builder result(TrainOutcome o) {
    TrainJob job = o.job();
    TrainResult.Builder r = TrainResult.newBuilder().setModel(job.spec()).setPattern(job.pattern().cliName())
        .setDataset(job.dataset()).setSeed(job.seed()).setCheckpointKey(job.modelId())
        .setEpochs(o.epochs()).setFinalLoss(o.finalLoss()).setValidationMae(o.bestValidationL1())
        .setBestEpoch(o.bestEpoch()).setCorrectTest(o.correctTest()).setJob(message(job)).setSeconds(o.seconds()).setResumedFromEpoch(o.resumedFromEpoch());
    o.errors().forEach((dataset, e) -> r.addErrors(DatasetErrors.newBuilder().setDataset(dataset).setL1(e.l1())
        .setLc(e.lc()).setGraphs(e.graphs())));
    CountErrors main = o.errors().get(job.dataset());
    if (main != null) {
      r.setTestMae(main.l1()).setTestLc(main.lc());
    }
    return r;
  }

  public static TrainOutcome outcome(TrainResult r) {
    Map<String, CountErrors> errors = new LinkedHashMap<>();
    for (DatasetErrors e : r.getErrorsList()) {
      errors.put(e.getDataset(), new CountErrors(e.getL1(), e.getLc(), e.getGraphs()));
    }
    return new TrainOutcome(job(r.getJob()), errors, r.getEpochs(), r.getFinalLoss(), r.getBestEpoch(),
        r.getValidationMae(), r.getCorrectTest(), r.getSeconds(), r.getResumedFromEpoch());
  }

  /**
   * The result of an attack job: curves, transfer, and every attacked graph in full (the search's
   * outcome, its loss history and whether its example transfers).
   *
   * @param delta the adversarial rule's relative margin
   */
  public static io.expresso.proto.v1.AttackResult.Builder result(AttackOutcome o, double delta) {
    AttackJob job = o.job();
    AttackCampaign.Summary s = o.summary();
    io.expresso.proto.v1.AttackResult.Builder r = io.expresso.proto.v1.AttackResult.newBuilder()
        .setModel(job.spec()).setCheckpointKey(job.modelId()).setPattern(s.pattern().cliName())
        .setSpace(job.space().cliName()).setBeamWidth(job.beamWidth()).setDelta(delta)
        .setNr(s.nr()).setNrTransfer(o.nrTransfer()).setAttacked(s.attacked())
        .setJob(message(job)).setSeconds(o.seconds());
    for (int b : s.budgets()) {
      r.addBudgets(b);
    }
    for (double f : s.fractions()) {
      r.addBudgetFractions(f);
    }
    for (double v : s.successRate()) {
      r.addSuccessRate(v);
    }
    for (double v : o.transferRate()) {
      r.addTransferRate(v);
    }
    List<AttackResult> results = s.results();
    for (int i = 0; i < results.size(); i++) {
      AttackResult a = results.get(i);
      GraphOutcome.Builder g = GraphOutcome.newBuilder().setIndex(i).setGraph(a.cleanGraph6())
          .setTrueCount(a.cleanCount()).setPrediction(a.cleanPrediction()).setCleanCorrect(a.cleanCorrect())
          .setSuccess(a.success()).setFirstAdversarialStep(a.firstAdversarialStep())
          .setExampleGraph(a.adversarialGraph6()).setExampleCount(a.adversarialCount())
          .setExamplePrediction(a.adversarialPrediction()).setPerturbationsEvaluated(a.perturbationsEvaluated())
          .setFlipsCounted(a.flipsCounted()).setMaxBudget(a.budget()).setBeamWidth(a.beamWidth());
      for (double l : a.lossHistory()) {
        g.addLossHistory(l);
      }
      for (AttackResult.Step step : a.steps()) {
        g.addSteps(AttackStep.newBuilder().setGraph(step.graph6()).setCount(step.count())
            .setPrediction(step.prediction()).setAdversarial(step.adversarial()));
      }
      boolean[] transfers = i < o.transfers().length ? o.transfers()[i] : new boolean[0];
      for (int k = 0; k < transfers.length; k++) {
        g.addTransfersPerBudget(transfers[k]);
      }
      for (int b : a.cleanCorrect() ? s.budgets() : new int[0]) { // no budgets: not attacked
        g.addBudgets(b).addAdversarial(a.adversarialAt(b));
      }
      r.addOutcomes(g);
    }
    return r;
  }

  /**
   * The outcome back from its result. The campaign's own transfer fields come back empty (NaN):
   * the job runner scores transfer outside the campaign, into the outcome's fields.
   */
  public static AttackOutcome outcome(io.expresso.proto.v1.AttackResult r) {
    AttackJob job = job(r.getJob());
    Pattern pattern = Pattern.fromName(r.getPattern());
    PerturbationSpace space = PerturbationSpace.fromName(r.getSpace());
    List<AttackResult> results = new ArrayList<>();
    boolean[][] transfers = new boolean[r.getOutcomesCount()][];
    for (int i = 0; i < r.getOutcomesCount(); i++) {
      GraphOutcome g = r.getOutcomes(i);
      List<AttackResult.Step> steps = new ArrayList<>();
      for (AttackStep st : g.getStepsList()) {
        steps.add(new AttackResult.Step(st.getGraph(), st.getCount(), st.getPrediction(), st.getAdversarial()));
      }
      results.add(new AttackResult(pattern, space, g.getMaxBudget(), g.getBeamWidth(), g.getGraph(),
          Math.round(g.getTrueCount()), g.getPrediction(), g.getCleanCorrect(), g.getFirstAdversarialStep(), steps,
          g.getLossHistoryList().stream().mapToDouble(Double::doubleValue).toArray(), g.getPerturbationsEvaluated(),
          g.getFlipsCounted()));
      transfers[i] = new boolean[g.getTransfersPerBudgetCount()];
      for (int k = 0; k < transfers[i].length; k++) {
        transfers[i][k] = g.getTransfersPerBudget(k);
      }
    }
    AttackCampaign.Summary summary = new AttackCampaign.Summary(pattern, space,
        r.getBudgetFractionsList().stream().mapToDouble(Double::doubleValue).toArray(),
        r.getBudgetsList().stream().mapToInt(Integer::intValue).toArray(),
        r.getSuccessRateList().stream().mapToDouble(Double::doubleValue).toArray(), r.getNr(), new double[0],
        Double.NaN, r.getAttacked(), List.copyOf(results));
    return new AttackOutcome(job, summary, transfers,
        r.getTransferRateList().stream().mapToDouble(Double::doubleValue).toArray(), r.getNrTransfer(), r.getSeconds());
  }

  private static String required(String value, String what) {
    if (value.isEmpty()) {
      throw new IllegalArgumentException(what + " is missing");
    }
    return value;
  }
}

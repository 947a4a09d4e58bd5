package io.expresso.robust;

import io.expresso.attack.Budgets;
import io.expresso.attack.PerturbationSpace;
import io.expresso.count.Pattern;
import io.expresso.model.RegressorSpec;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.TrainTask;
import java.util.Arrays;
import java.util.List;

/**
 * How train and attack jobs are named and sized, and read back from task messages: shared by the
 * robustness experiment and {@code expresso publish train|attack} (their messages are built by
 * {@link io.expresso.robust.fleet.StudyTasks}), so a task published by hand is exactly the task
 * the experiment would have published.
 */
public final class StudyJobs {

  private StudyJobs() {}

  /**
   * The full spec of a model option for a pattern: a bare architecture ({@code ppgn}) gets its
   * counting recipe's spec ({@link io.expresso.train.CountRecipe}: width, depth, I²-GNN's radius
   * per pattern) within the scale's caps; a spec with {@code :key=value} is kept as written (an
   * I²-GNN spec without {@code hops} gets the pattern's radius). A bad architecture or key fails
   * with {@link IllegalArgumentException} naming it.
   */
  public static String resolveSpec(String model, Pattern pattern, Scale scale) {
    String m = model.trim();
    RegressorSpec parsed = RegressorSpec.parse(m); // names a bad architecture as the user wrote it
    return m.contains(":") ? io.expresso.train.CountRecipe.resolve(m, pattern)
        : scale.recipe(parsed.architecture(), pattern).spec();
  }

  /**
   * The checkpoint key of a model trained from scratch:
   * {@code <experiment>/<spec>/<pattern>/<dataset>/s<seed>}, with the canonical full spec (e.g.
   * {@code ppgn:layers=3,hidden=16,…}) so two specs of one architecture never share a key.
   */
  public static String modelId(String experimentId, String spec, Pattern pattern, String dataset, long seed) {
    return experimentId + "/" + RegressorSpec.parse(spec) + "/" + pattern.cliName() + "/" + dataset + "/s" + seed;
  }

  /** A model trained from scratch on {@code dataset}, tested on {@code dataset} alone. */
  public static TrainJob train(String experimentId, String spec, Pattern pattern, String dataset, Scale scale,
      long seed) {
    return train(experimentId, spec, pattern, dataset, scale, seed, RobustnessExperiment.Sizes.SCALE);
  }

  /**
   * The same with the command line's sizes ({@code --graphs}, {@code --max-epochs}, {@code
   * --learning-rate}, {@code --batch-size}; their {@code seeds} is not read). The id carries an
   * overridden rate and batch as the experiment's does; the graphs and epoch cap travel in the job
   * and come back in its result.
   */
  public static TrainJob train(String experimentId, String spec, Pattern pattern, String dataset, Scale scale,
      long seed, RobustnessExperiment.Sizes sizes) {
    StudyData.check(dataset);
    return new TrainJob(modelId(experimentId, spec, pattern, dataset, seed) + sizes.suffix(), spec, pattern, dataset,
        scale, seed, null, List.of(dataset), sizes.graphs(), sizes.maxEpochs(), sizes.learningRate(), sizes.batchSize());
  }

  /**
   * An attack on a stored model. Its id is {@code <key>/attack-<space>}, as in the study, with
   * {@code /beam-W}, {@code /budgets-…} and {@code /seed-S} appended when they differ from the
   * defaults, so differently configured attacks on one model are different tasks.
   *
   * @param beam 0 for the default beam width
   * @param budgetFractions null for the paper's 1, 5, 10, 25%
   */
  public static AttackJob attack(StoredModel model, PerturbationSpace space, Scale scale, String dataset,
      List<String> transferTo, long seed, int beam, double[] budgetFractions) {
    StudyData.check(dataset);
    StringBuilder id = new StringBuilder(model.key()).append("/attack-").append(space.cliName());
    if (beam > 0) {
      id.append("/beam-").append(beam);
    }
    if (budgetFractions != null && !Arrays.equals(budgetFractions, Budgets.PAPER_FRACTIONS)) {
      id.append("/budgets");
      for (double f : budgetFractions) {
        id.append('-').append(f);
      }
    }
    if (seed != 0) {
      id.append("/seed-").append(seed);
    }
    return new AttackJob(id.toString(), model.key(), model.spec(), space, scale, dataset, transferTo, seed, beam,
        budgetFractions);
  }

  public static String taskId(TrainJob j) {
    return "train:" + j.modelId();
  }

  public static String taskId(AttackJob j) {
    return "attack:" + j.attackId();
  }

  /** The job a train task carries. @throws IllegalArgumentException naming a missing or bad field */
  public static TrainJob job(TrainTask task) {
    return RobustProtos.job(task.getJob());
  }

  /** The job an attack task carries. @throws IllegalArgumentException naming a missing or bad field */
  public static AttackJob job(AttackTask task) {
    return RobustProtos.job(task.getJob());
  }
}

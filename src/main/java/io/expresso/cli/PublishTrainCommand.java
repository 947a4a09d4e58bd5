package io.expresso.cli;

import io.expresso.robust.fleet.StudyTasks;
import io.expresso.count.Pattern;
import io.expresso.robust.RobustnessExperiment;
import io.expresso.robust.Scale;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.TrainJob;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code expresso publish train}: one robustness train task per seed, exactly as the robustness
 * experiment would publish it; prints each checkpoint key so the model can be attacked later.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
    description = {"One train task per seed: a count regressor (the robustness study's models) trained on a "
        + "study dataset at a scale; the worker stores the checkpoint in expresso.models and answers with its "
        + "test errors. Prints the checkpoint keys to give to 'publish attack --checkpoint'.",
        "Scales: tiny (tests, 200 ER graphs), small (a 2-core laptop), paper (GPU workers)."})
final class PublishTrainCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin PublishCommand.Common common = new PublishCommand.Common();
  @CommandLine.Mixin StudySizeOptions sizes = new StudySizeOptions();

  @Option(names = "--model", required = true, paramLabel = "M",
      description = "i2gnn, ppgn, gin or ngnn-de, optionally with :key=value (a bare name gets the scale's width and depth)")
  String model;

  @Option(names = "--pattern", required = true, paramLabel = "P", converter = PatternConverter.class,
      completionCandidates = PatternConverter.Names.class, description = "pattern to count: ${COMPLETION-CANDIDATES}")
  Pattern pattern;

  @Option(names = "--dataset", paramLabel = "D",
      description = "sbm, er-0.3 or er-0.8 (default: the scale's attack dataset, er-0.3 for tiny, sbm otherwise)")
  String dataset;

  @Option(names = "--seeds", paramLabel = "A-B", defaultValue = "0",
      description = "initialisation seeds A..B, one task each (default: ${DEFAULT-VALUE})")
  String seeds;

  @Override
  public Integer call() {
    List<TrainJob> jobs = new ArrayList<>();
    String resolved;
    try {
      Scale s = sizes.scale();
      resolved = StudyJobs.resolveSpec(model, pattern, s);
      String d = dataset != null ? dataset : s.attackDataset();
      RobustnessExperiment.Sizes given = sizes.sizes(0);
      int[] range = Ranges.option(spec, "--seeds", seeds);
      if (range[1] - range[0] >= 1000) {
        throw new IllegalArgumentException("--seeds '" + seeds + "' asks for more than 1000 train tasks");
      }
      for (long seed = range[0]; seed <= range[1]; seed++) {
        jobs.add(StudyJobs.train(common.experiment, resolved, pattern, d, s, seed, given));
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    KafkaClients clients = common.connect(spec);
    Set<String> succeeded = common.alreadySucceeded(clients);
    int published = 0;
    try (Publisher p = new Publisher(clients)) {
      for (TrainJob j : jobs) {
        if (!succeeded.contains(StudyJobs.taskId(j))) {
          p.send(StudyJobs.taskId(j), StudyTasks.trainTask(common.experiment, j));
          published++;
        }
      }
      p.flush();
    }
    TrainJob first = jobs.get(0);
    PrintWriter o = spec.commandLine().getOut();
    o.println("published " + published + " train task" + (published == 1 ? "" : "s") + " (" + resolved
        + " counting " + pattern.cliName() + " on " + first.dataset() + ", scale " + first.scale().cliName()
        + ", seeds " + seeds + ", " + first.datasetSize() + " graphs, at most "
        + (first.maxEpochs() > 0 ? first.maxEpochs() : first.scale().epochs()) + " epochs) to " + Topics.TASKS + " for experiment " + common.experiment);
    PublishCommand.Common.printSkipped(o, jobs.size() - published);
    o.println("checkpoint keys (for 'expresso publish attack --checkpoint KEY' once trained):");
    for (TrainJob j : jobs) {
      o.println("  " + j.modelId());
    }
    o.flush();
    return 0;
  }
}

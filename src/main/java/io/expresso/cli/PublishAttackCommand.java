package io.expresso.cli;

import io.expresso.robust.fleet.StudyTasks;
import io.expresso.attack.PerturbationSpace;
import io.expresso.robust.AttackJob;
import io.expresso.robust.fleet.KafkaModelStore;
import io.expresso.robust.Scale;
import io.expresso.robust.StoredModel;
import io.expresso.robust.StudyData;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.TrainJob;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code expresso publish attack}: attack tasks on a checkpoint in {@code expresso.models}, one
 * per perturbation space. The checkpoint is looked up before anything is published, so a wrong
 * key fails here (exit 1, naming it) rather than as an error result minutes later; a checkpoint
 * that vanishes in between still comes back as an {@code invalid-task} error result.
 */
@Command(name = "attack", mixinStandardHelpOptions = true,
    description = {"Attack tasks on a trained count model (a checkpoint key printed by 'publish train'), one per "
        + "perturbation space: beam search for flips within budgets that make the model miscount its correctly "
        + "predicted test graphs (Campi et al.). Scale and dataset default to those the model was trained at."})
final class PublishAttackCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin PublishCommand.Common common = new PublishCommand.Common();

  @Option(names = "--checkpoint", required = true, paramLabel = "KEY", description = "checkpoint key in expresso.models")
  String checkpoint;

  @Option(names = "--space", paramLabel = "S", split = ",", defaultValue = "any,count,subgraph",
      description = "perturbation spaces, comma-separated: any (P), count (P^c), subgraph (P^s); also p, pc, ps "
          + "(default: ${DEFAULT-VALUE})")
  List<String> spaces;

  @Option(names = "--scale", paramLabel = "S",
      description = "tiny, small or paper: how many graphs are attacked, candidate flips (default: the model's)")
  String scale;

  @Option(names = "--dataset", paramLabel = "D",
      description = "sbm, er-0.3 or er-0.8: whose test graphs are attacked (default: the model's training dataset)")
  String dataset;

  @Option(names = "--budgets", paramLabel = "F", split = ",",
      description = "increasing flip budgets as fractions of the mean edge count, e.g. 0.01,0.05 or 1%,5% "
          + "(default: 1%,5%,10%,25%)")
  List<String> budgets;

  @Option(names = "--beam-width", paramLabel = "W",
      description = "beam width (default: 1 = greedy for any, the scale's width for count and subgraph)")
  Integer beamWidth;

  @Option(names = "--transfer-to", paramLabel = "KEY", split = ",",
      description = "checkpoint keys the adversarial examples are transferred to (e.g. the other seeds)")
  List<String> transferTo = List.of();

  @Option(names = "--seed", paramLabel = "N", description = "seed of the candidate sampling (default: ${DEFAULT-VALUE})")
  long seed = 0;

  @Override
  public Integer call() {
    List<PerturbationSpace> ps = new ArrayList<>();
    double[] fractions;
    Scale scaleOption;
    try {
      for (String s : new LinkedHashSet<>(spaces)) {
        PerturbationSpace p = space(s);
        if (!ps.contains(p)) {
          ps.add(p);
        }
      }
      fractions = budgets == null ? null : fractions(budgets);
      scaleOption = scale == null ? null : Scale.fromName(scale);
      if (dataset != null) {
        StudyData.check(dataset);
      }
      if (beamWidth != null && (beamWidth < 1 || beamWidth > 1000)) {
        throw new IllegalArgumentException("--beam-width " + beamWidth + " outside 1..1000");
      }
      if (seed < 0) {
        throw new IllegalArgumentException("--seed " + seed + " is negative");
      }
      if (checkpoint.isBlank()) {
        throw new IllegalArgumentException("--checkpoint is empty");
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    KafkaClients clients = common.connect(spec);
    StoredModel model;
    try (KafkaModelStore store = new KafkaModelStore(clients, "publisher")) {
      model = stored(store, clients, checkpoint, "");
      for (String t : transferTo) {
        stored(store, clients, t, "transfer ");
      }
    }
    Optional<TrainJob> trained = model.trainedBy();
    Scale s = scaleOption != null ? scaleOption : trained.map(TrainJob::scale).orElse(Scale.SMALL);
    String d = dataset != null ? dataset : trained.map(TrainJob::dataset).orElse(s.attackDataset());
    trained.filter(t -> t.scale() != s || !t.dataset().equals(d)).ifPresent(t -> System.err.println(
        "expresso: warning: " + checkpoint + " was trained on " + t.dataset() + " at scale " + t.scale().cliName()
            + "; attacking the test graphs of " + d + " at scale " + s.cliName()
            + " (they may include graphs it was trained on)"));
    List<AttackJob> jobs = new ArrayList<>();
    for (PerturbationSpace p : ps) {
      jobs.add(StudyJobs.attack(model, p, s, d, transferTo, seed, beamWidth == null ? 0 : beamWidth, fractions));
    }
    Set<String> succeeded = common.alreadySucceeded(clients);
    List<AttackJob> toPublish = jobs.stream().filter(j -> !succeeded.contains(StudyJobs.taskId(j))).toList();
    try (Publisher p = new Publisher(clients)) {
      for (AttackJob j : toPublish) {
        p.send(StudyJobs.taskId(j), StudyTasks.attackTask(common.experiment, j));
      }
      p.flush();
    }
    PrintWriter o = spec.commandLine().getOut();
    o.printf(Locale.ROOT, "published %d attack task%s on %s (%s counting %s; up to %d correctly predicted %s test "
        + "graphs at scale %s; budgets %s of the mean edge count) to %s for experiment %s%n", toPublish.size(),
        toPublish.size() == 1 ? "" : "s", model.key(), model.spec(), model.pattern().cliName(), s.attacked(), d,
        s.cliName(), percents(jobs.get(0).budgetFractions()), Topics.TASKS, common.experiment);
    for (AttackJob j : toPublish) {
      o.printf(Locale.ROOT, "  %s  space %s, beam %d%n", StudyJobs.taskId(j), j.space().cliName(), j.beamWidth());
    }
    PublishCommand.Common.printSkipped(o, jobs.size() - toPublish.size());
    o.flush();
    return 0;
  }

  /** The stored model under {@code key}; a missing one is a failure naming the key (exit 1). */
  private static StoredModel stored(KafkaModelStore store, KafkaClients clients, String key, String what) {
    return store.describe(key).orElseThrow(() -> new IllegalStateException(what + "checkpoint '" + key
        + "' is not in " + Topics.MODELS + " on " + clients.bootstrap() + " (is the key right, and has its train task"
        + " finished? see 'expresso results')"));
  }

  static PerturbationSpace space(String name) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "p" -> PerturbationSpace.ANY;
      case "pc" -> PerturbationSpace.COUNT_PRESERVING;
      case "ps" -> PerturbationSpace.SUBGRAPH_PRESERVING;
      default -> {
        try {
          yield PerturbationSpace.fromName(name);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--space: unknown perturbation space '" + name
              + "' (expected any, count, subgraph or p, pc, ps)");
        }
      }
    };
  }

  /** Budgets as fractions ("0.05") or percents ("5%"); range and order are checked by the job. */
  static double[] fractions(List<String> texts) {
    double[] f = new double[texts.size()];
    for (int i = 0; i < f.length; i++) {
      String t = texts.get(i).trim();
      try {
        f[i] = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100 : Double.parseDouble(t);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--budgets: '" + t + "' is not a fraction (0.05) or a percent (5%)");
      }
      if (!(f[i] > 0 && f[i] <= 1)) {
        throw new IllegalArgumentException("--budgets: '" + t + "' is not in (0, 1] of the mean edge count");
      }
      if (i > 0 && !(f[i] > f[i - 1])) {
        throw new IllegalArgumentException("--budgets must increase: '" + texts.get(i - 1) + "' then '" + t + "'");
      }
    }
    return f;
  }

  private static String percents(double[] f) {
    Set<String> out = new LinkedHashSet<>();
    for (double x : f) {
      out.add(String.format(Locale.ROOT, "%s%%", new java.math.BigDecimal(100 * x).round(new java.math.MathContext(4))
          .stripTrailingZeros().toPlainString()));
    }
    return String.join(", ", out);
  }
}

package io.expresso.cli;

import io.expresso.runtime.TaskMessages;
import io.expresso.dataset.DatasetSpecs;
import io.expresso.model.RegressorSpec;
import io.expresso.proto.v1.DatasetTask;
import io.expresso.runtime.DatasetEvaluator;
import io.expresso.train.DatasetProtocol;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** What {@code train-dataset} and {@code publish dataset} share: the dataset, models, protocol, folds and seeds. */
final class DatasetOptions {

  /** benchmarking-gnns' reference GIN (its CSL and TU configurations: residual, learned ε). */
  static final String BENCHMARK_GIN = "gin:residual=true,learn-eps=true";

  @Option(names = "--dataset", required = true, paramLabel = "D",
      description = "csl[:seed=N], planted[:seed=N], regress[:seed=N] (regression: triangle counts),"
          + " tu:DIR[,node-labels=false][,target=labels|attributes] (a TU dataset directory such as data/MUTAG: classes"
          + " from DS_graph_labels.txt or real targets from DS_graph_attributes.txt; node labels feed gin unless"
          + " node-labels=false) or clean:SPEC (the audit's clean version)")
  String dataset;

  @Option(names = "--models", paramLabel = "M", split = RegressorSpec.LIST_SPLIT,
      description = "model specs (gin, ppgn, ngnn-de with :key=value; a ',' before key=value continues the spec);"
          + " one without hidden= or budget= is sized to the protocol's budget; pe=K adds K Laplacian encodings"
          + " (default: the benchmark's GIN, " + BENCHMARK_GIN + ", without and with pe=<the protocol's PE dimension>)")
  List<String> models;

  @Option(names = "--protocol", paramLabel = "P", defaultValue = "benchmarking-gnns",
      description = "benchmarking-gnns (Dwivedi et al.: Adam 5e-4, halve after 5 epochs without a better validation"
          + " loss, stop below 1e-6, 100k parameters), benchmarking-gnns-tu (its TU settings: 7e-3, patience 25, batch 20,"
          + " 10 folds) or quick (smoke runs) (default: ${DEFAULT-VALUE})")
  String protocol;

  @Option(names = "--folds", paramLabel = "K",
      description = "folds, stratified for classes, plain shuffled for regression (default: the protocol's, 5)")
  int folds;

  @Option(names = "--fold", paramLabel = "A-B", description = "only folds A..B (default: all)")
  String foldRange;

  @Option(names = "--seeds", paramLabel = "A-B", description = "initialisation seeds A..B (default: 0..the protocol's count - 1)")
  String seeds;

  @Option(names = "--split-seed", paramLabel = "S", description = "seed of the split (default: ${DEFAULT-VALUE})")
  long splitSeed = 0;

  @Option(names = "--max-epochs", paramLabel = "N", description = "epoch cap (default: the protocol's)")
  int maxEpochs;

  @Option(names = "--max-hours", paramLabel = "H", description = "wall-time cap per fold and seed (default: the protocol's, 12)")
  double maxHours;

  /** The protocol named, with the caps given. */
  DatasetProtocol protocol(CommandLine.Model.CommandSpec spec) {
    try {
      UsageChecks.range(spec, "--max-epochs", maxEpochs, 0, 100_000);
      if (maxHours < 0) {
        throw new IllegalArgumentException("--max-hours must not be negative, got " + maxHours);
      }
      return DatasetProtocol.byName(protocol).withCaps(maxEpochs, maxHours);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** One task per model × fold × seed, in that order; model specs are checked here, not by every worker. */
  List<DatasetTask> tasks(CommandLine.Model.CommandSpec spec, String experiment) {
    try {
      DatasetSpecs.checkForm(dataset);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--dataset: " + e.getMessage());
    }
    DatasetProtocol p = protocol(spec);
    int k = folds > 0 ? folds : p.folds();
    UsageChecks.range(spec, "--folds", k, 3, 100);
    int[] foldSpan = foldRange == null ? new int[] {0, k - 1} : Ranges.option(spec, "--fold", foldRange);
    if (foldSpan[1] >= k) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--fold " + foldRange + " goes past fold " + (k - 1));
    }
    int[] seedSpan = seeds == null ? new int[] {0, p.seeds() - 1} : Ranges.option(spec, "--seeds", seeds);
    List<String> specs = models == null || models.isEmpty()
        ? p.peDim() > 0 ? List.of(BENCHMARK_GIN, BENCHMARK_GIN + ",pe=" + p.peDim()) : List.of(BENCHMARK_GIN)
        : models;
    List<DatasetTask> out = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (String m : specs) {
      try {
        DatasetEvaluator.modelSpec(m, 2, p);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--models: " + e.getMessage());
      }
      for (int f = foldSpan[0]; f <= foldSpan[1]; f++) {
        for (int s = seedSpan[0]; s <= seedSpan[1]; s++) {
          String id = experiment + "/" + dataset + "/" + m + "/fold" + f + "/seed" + s;
          out.add(DatasetTask.newBuilder().setHeader(TaskMessages.header(experiment, id, now)).setDataset(dataset)
              .setModel(m).setProtocol(p.name()).setFolds(k).setFold(f).setSplitSeed(splitSeed).setSeed(s)
              .setMaxEpochs(maxEpochs).setMaxHours(maxHours).build());
        }
      }
    }
    if (out.size() > 100_000) {
      throw new CommandLine.ParameterException(spec.commandLine(), out.size() + " tasks are too many (at most 100000)");
    }
    return out;
  }
}

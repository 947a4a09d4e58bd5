package io.expresso.cli;

import io.expresso.proto.v1.DatasetResult;
import io.expresso.proto.v1.DatasetTask;
import io.expresso.report.DatasetReport;
import io.expresso.report.DatasetTable;
import io.expresso.runtime.DatasetEvaluator;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.TaskFailure;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code expresso train-dataset}: the dataset tasks of {@code publish dataset}, run here one after
 * another through the same evaluator a worker uses, with a progress bar; then the table.
 */
@Command(name = "train-dataset", mixinStandardHelpOptions = true,
    description = {"Train graph classifiers or regressors on a dataset under a benchmarking protocol, here, without"
        + " Kafka: one run per model x fold x seed (stratified k-fold for classes, plain shuffled k-fold for real"
        + " targets), then per-run accuracies or mean absolute errors (L1 loss) and mean +- std, and which test graphs"
        + " have an isomorphic copy in training (the score on them, on the rest, and the audit's peering predictor).",
        "TU node labels are one-hot GIN inputs unless the dataset spec says node-labels=false. See docs/datasets.md."})
final class TrainDatasetCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin DatasetOptions options = new DatasetOptions();

  @CommandLine.Mixin PrecisionOption precision = new PrecisionOption();

  @Option(names = "--device", paramLabel = "D", defaultValue = "cpu", description = "cpu or gpu:N (default: ${DEFAULT-VALUE})")
  String device;

  @Option(names = "--name", paramLabel = "N", defaultValue = "local", description = "name of the output files (default: ${DEFAULT-VALUE})")
  String name;

  @Option(names = "--out", paramLabel = "DIR", description = "also write NAME.dataset.jsonl (every result with its"
      + " configuration) and NAME.dataset.txt (the table) to DIR")
  Path out;

  @Override
  public Integer call() throws Exception {
    precision.apply(spec);
    DeviceSlot d = UsageChecks.devices(spec, device).get(0);
    List<DatasetTask> tasks = options.tasks(spec, name);
    DatasetEvaluator evaluator = new DatasetEvaluator();
    List<DatasetResult> results = new ArrayList<>();
    try (ProgressBar bar = ProgressBars.start("train-dataset", tasks.size(), spec.commandLine().getErr())) {
      for (DatasetTask t : tasks) {
        DatasetResult r;
        try {
          r = evaluator.evaluate(t, d, () -> false).getDataset();
        } catch (TaskFailure e) {
          throw new IllegalStateException(e.getMessage(), e);
        }
        results.add(r);
        String score = r.getTaskType().equals("regression") ? String.format(Locale.ROOT, "test MAE %.4f", r.getTestMae())
            : String.format(Locale.ROOT, "test %.1f %%", 100 * r.getTestAccuracy());
        ProgressBars.step(bar, String.format(Locale.ROOT, "%s fold %d seed %d: %s after %d epochs", t.getModel(),
            t.getFold(), t.getSeed(), score, r.getEpochs()));
      }
    }
    PrintWriter o = spec.commandLine().getOut();
    o.print(DatasetTable.render(results));
    o.flush();
    if (out != null) {
      for (Path p : DatasetReport.write(out, name, results)) {
        System.err.println("wrote " + p);
      }
    }
    return 0;
  }
}

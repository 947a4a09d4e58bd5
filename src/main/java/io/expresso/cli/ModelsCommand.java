package io.expresso.cli;

import ai.djl.Device;
import io.expresso.model.Architecture;
import io.expresso.model.BrecConstruction;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.model.ModelSpec;
import io.expresso.model.TorchScriptSpec;
import io.expresso.report.Table;
import io.expresso.train.TrainingSettings;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code expresso models}: the built-in architectures with their keys, defaults and parameter
 * counts, read from {@link Architecture} and {@link ModelSpec#defaults} (an architecture added
 * there shows up here), and the form of a user's TorchScript spec.
 */
@Command(name = "models", mixinStandardHelpOptions = true,
    description = "List the built-in GNN architectures (--model of eval and publish brec) with their keys, defaults"
        + " and parameter counts, and how to bring your own TorchScript module.")
final class ModelsCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Table t = new Table("model", "keys", "defaults", "parameters", "BREC's", "epochs", "stop below loss", "schedule",
        "threshold");
    StringBuilder differences = new StringBuilder();
    for (Architecture a : Architecture.values()) {
      ModelSpec d = ModelSpec.defaults(a);
      TrainingSettings training = TrainingSettings.defaults(a);
      long parameters;
      // built once at its defaults, on the CPU: the count is the model's own, not a formula kept beside it
      try (GraphModel m = GraphModel.create(d, Head.EMBEDDING, Device.cpu(), 0L)) {
        parameters = m.parameterCount();
      }
      BrecConstruction brec = BrecConstruction.of(a);
      t.row(a.cliName(), String.join(", ", a.keys()), d.toText().substring(a.cliName().length() + 1),
          String.valueOf(parameters), brec.trainable() > 0 ? String.valueOf(brec.reachable()) : "-",
          String.valueOf(training.epochs()), String.valueOf(training.lossThreshold()), training.schedule().text(),
          io.expresso.train.EvaluationSettings.threshold(a).id());
      if (!brec.differences().isEmpty()) {
        differences.append("  ").append(a.cliName()).append(": ").append(brec.differences()).append('\n');
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(t.render());
    out.println("settings: --model NAME:key=value,... (e.g. ppgn:layers=3,hidden=16); parameters are the trainable"
        + " scalars at the defaults, with the embedding head d; BREC's: those of the model BREC's own script builds"
        + " that its inputs can reach (scripts/brec-parameter-counts.py; - not counted); schedule: ReduceLROnPlateau"
        + " on the epoch loss as each model's BREC script builds it (PyTorch's defaults; eval --schedule changes it);"
        + " threshold: the T² a pair must exceed as the model's BREC script judges (rpc: 72.34; eval --threshold changes it)");
    out.print("where a model differs from BREC's:\n" + differences);
    // the count regressors of experiment robustness, at their recipes' specs (Campi et al.'s models)
    Table counts = new Table("count model", "spec (recipe, triangle)", "parameters", "as the authors' code");
    for (String arch : java.util.List.of("i2gnn", "ppgn", "gin")) {
      String recipeSpec = io.expresso.train.CountRecipe.of(arch, io.expresso.count.Pattern.TRIANGLE).spec();
      io.expresso.model.GraphRegressor net = io.expresso.model.RegressorSpec.parse(recipeSpec).create();
      long n;
      try (ai.djl.ndarray.NDManager m = ai.djl.ndarray.NDManager.newBaseManager(Device.cpu())) {
        net.block().initialize(m, ai.djl.ndarray.types.DataType.FLOAT32, net.inputShapes(m));
        // trainable only: batch norm's running statistics are not parameters to PyTorch
        n = net.block().getParameters().values().stream().filter(ai.djl.nn.Parameter::requiresGradient)
            .mapToLong(p -> p.getArray().size()).sum();
      }
      counts.row(arch, recipeSpec, String.valueOf(n), switch (arch) {
        case "i2gnn" -> "237,825 less transform_before_conv[0] (8,256), registered and never called";
        case "ppgn" -> "PPGN(1, 128, 64, 4, depth_of_mlp=2): 343,105";
        default -> "GIN(1, 128, 4, 64, act='elu', concat=True) (their tests/model.json): 243,525";
      });
    }
    out.print(counts.render());
    out.println("count models' remaining deviations from the authors' code (docs/robustness.md): gin leaves out dropout"
        + " (0 in every run their GNN_train.py makes); the paper grid varies rate, batch, channels and layers, not their"
        + " YAML's act, pooling, aggr and jk; validation l1 is the mean over graphs (theirs over batches)");
    out.println("your own model: " + TorchScriptSpec.PREFIX + "FILE.pt[,input=sparse|dense][,features=ones|degree|spd|count-P"
        + " joined by +][,init=auto|reset|saved][,width=W,depth=L] (docs/gnn-evaluation.md, Your own model)");
    out.flush();
    return 0;
  }
}

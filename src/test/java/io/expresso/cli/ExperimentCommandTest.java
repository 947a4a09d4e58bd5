package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ExperimentCommandTest {

  private static String[] run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
    try {
      int code = Main.execute(args);
      return new String[] {String.valueOf(code), o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8)};
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void specsWithCommasRoundTripThroughModels() {
    ExperimentCommand.Robustness r = new ExperimentCommand.Robustness();
    new picocli.CommandLine(r).parseArgs("--models", "ppgn:layers=3,hidden=16,i2gnn", "--models", "gin:layers=2;ngnn-de");
    assertThat(r.models).containsExactly("ppgn:layers=3,hidden=16", "i2gnn", "gin:layers=2", "ngnn-de");
    io.expresso.robust.RobustnessExperiment exp = new io.expresso.robust.RobustnessExperiment("e",
        io.expresso.robust.Scale.TINY, r.models, java.util.List.of(io.expresso.count.Pattern.TRIANGLE), false);
    String ppgn = exp.spec(exp.models().get(0), io.expresso.count.Pattern.TRIANGLE);
    assertThat(io.expresso.model.RegressorSpec.parse(ppgn))
        .isEqualTo(io.expresso.model.RegressorSpec.parse("ppgn:layers=3,hidden=16"));
    // the canonical full specs go back through --models as the same specs
    java.util.List<String> specs = exp.models().stream().map(m -> exp.spec(m, io.expresso.count.Pattern.TRIANGLE)).toList();
    ExperimentCommand.Robustness again = new ExperimentCommand.Robustness();
    new picocli.CommandLine(again).parseArgs("--models", String.join(",", specs));
    assertThat(again.models).isEqualTo(specs);
    assertThat(new picocli.CommandLine(new ExperimentCommand.Robustness()).parseArgs().matchedOptions()).isEmpty();
  }

  @Test
  void helpAndUsageErrors() {
    String[] help = run("experiment", "robustness", "--help");
    assertThat(help[0]).isEqualTo("0");
    assertThat(help[1]).contains("--scale", "--models", "--patterns", "--bootstrap");
    String[] scale = run("experiment", "robustness", "--embedded", "--scale", "huge");
    assertThat(scale[0]).isEqualTo("2");
    assertThat(scale[2]).contains("unknown scale 'huge'");
    String[] model = run("experiment", "robustness", "--embedded", "--models", "gcn");
    assertThat(model[0]).isEqualTo("2");
    assertThat(model[2]).contains("unknown count-regression model 'gcn'");
    String[] pattern = run("experiment", "robustness", "--embedded", "--patterns", "pentagon");
    assertThat(pattern[0]).isEqualTo("2");
    String[] noPattern = run("experiment", "robustness", "--embedded", "--patterns", "");
    assertThat(noPattern[0]).isEqualTo("2");
    assertThat(noPattern[2]).contains("pattern");
    String[] grid = run("experiment", "robustness", "--embedded", "--grid", "lr=1e-3;momentum=0.9");
    assertThat(grid[0]).isEqualTo("2");
    assertThat(grid[2]).contains("--grid: unknown key 'momentum' in 'momentum=0.9' (keys: lr, batch, width, depth)");
    assertThat(grid[2].strip().lines().filter(l -> l.contains("momentum")).count()).isEqualTo(1);
    String[] both = run("experiment", "robustness", "--embedded", "--grid", "depth=3", "--learning-rate", "0.001");
    assertThat(both[0]).isEqualTo("2");
    assertThat(both[2]).contains("--search chooses the learning rate");
    String[] where = run("experiment", "robustness", "--scale", "tiny");
    assertThat(where[0]).isEqualTo("2");
    assertThat(where[2]).contains("either --bootstrap B or --embedded");
    String[] page = run("experiment", "robustness", "--bootstrap", "127.0.0.1:1", "--metrics-port", "0");
    assertThat(page[0]).isEqualTo("2");
    assertThat(page[2]).contains("--metrics-port serves the embedded broker's live page", "expresso watch");
    assertThat(run("experiment", "robustness", "--embedded", "--metrics-port", "70000")[0]).isEqualTo("2");
    assertThat(run("experiment")[0]).isEqualTo("2");
    assertThat(run("demo", "--robustness", "big")[0]).isEqualTo("2");
  }
}

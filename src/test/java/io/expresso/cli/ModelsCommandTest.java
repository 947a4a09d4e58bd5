package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import io.expresso.model.Architecture;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.model.ModelSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ModelsCommandTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  private static final java.util.Map<String, String> SAMPLE = java.util.Map.of("layers", "2", "hidden", "8", "d", "4",
      "radius", "1", "bn-momentum", "0.5", "pe", "2", "budget", "100k", "residual", "true", "learn-eps", "true",
      "node-labels", "3");

  @Test
  void listsEveryArchitectureWithItsDefaultsAndParameterCount() {
    assertThat(Main.execute("models")).isZero();
    String out = console.out();
    for (Architecture a : Architecture.values()) {
      ModelSpec d = ModelSpec.defaults(a);
      long parameters;
      try (GraphModel m = GraphModel.create(d, Head.EMBEDDING, Device.cpu(), 0L)) {
        parameters = m.parameterCount();
      }
      String row = out.lines().filter(l -> l.startsWith(a.cliName() + " ")).findFirst().orElseThrow(
          () -> new AssertionError("no row for " + a.cliName() + " in\n" + out));
      assertThat(row).contains(d.toText().substring(a.cliName().length() + 1)).contains(" " + parameters + " ")
          .contains(String.join(", ", a.keys()) + " ")
          .contains(io.expresso.train.TrainingSettings.defaults(a).schedule().text()) // as its BREC script
          .endsWith(" " + io.expresso.train.EvaluationSettings.threshold(a).id()); // the T² it judges at, as its script
      // every key listed is one the architecture takes
      for (String key : a.keys()) {
        String text = a.cliName() + ":" + key + "=" + SAMPLE.get(key);
        assertThat(ModelSpec.parse(text)).as(text).isNotNull();
      }
    }
    assertThat(Architecture.PPGN.keys()).doesNotContain("residual", "learn-eps", "node-labels");
    // GIN at 4 layers of width 32, d 16: per layer Linear, BN, Linear, BN and a readout Linear
    long gin = 0;
    for (int l = 0; l < 4; l++) {
      gin += (l == 0 ? 1 : 32) * 32 + 32 + 64 + 32 * 32 + 32 + 64 + 32 * 16 + 16;
    }
    assertThat(out).contains(" " + gin + " ").contains("torchscript:FILE.pt");
    // every model BREC's construction was not matched for names why
    assertThat(out).contains("where a model differs from BREC's:").contains("  gsn: the counts are one-hot encoded over the values BREC's GSN dataset holds")
        .contains("  i2gnn: each label embedding holds the 22 rows").contains("  ds-gnn: BREC's committed script builds in_dim=1")
        .contains("  dropgnn: each copy's edges are offset by the batch's vertex count");
    assertThat(out.lines().filter(l -> l.startsWith("dropgnn ")).findFirst().orElseThrow()).endsWith(" 5");
    // Campi et al.'s count models at their recipes' specs: trainable parameters as their constructors' (CountModelsTest)
    assertThat(out).containsPattern("i2gnn +i2gnn:hidden=64,layers=5,hops=1 +229569 ")
        .containsPattern("ppgn +ppgn:in=1,hidden=128,d=64,layers=4,depth=2 +343105 ")
        .containsPattern("gin +gin:in=1,hidden=128,out=64,layers=4 +243525 +GIN\\(1, 128, 4, 64")
        .contains("gin leaves out dropout");
  }
}

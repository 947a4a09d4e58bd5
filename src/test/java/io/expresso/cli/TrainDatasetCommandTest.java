package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class TrainDatasetCommandTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @Test
  void trainsEveryFoldAndSeedAndWritesTheTableAndResults(@TempDir Path out) throws Exception {
    int code = Main.execute("train-dataset", "--dataset", "csl", "--models", "gin:hidden=8,layers=1",
        "--protocol", "quick", "--fold", "0-1", "--seeds", "0-1", "--max-epochs", "2", "--name", "t", "--out", out.toString());
    assertThat(code).as(console.err()).isZero();
    assertThat(console.out()).contains("gin:hidden=8,layers=1 on csl (150 graphs, 10 classes)")
        .contains("test accuracy 10.00 ± 0.00 %").contains("over 4 runs");
    assertThat(Files.readAllLines(out.resolve("t.dataset.jsonl"))).hasSize(4)
        .allSatisfy(l -> assertThat(l).contains("\"protocol\":{\"name\":\"quick\"").contains("\"testAccuracy\":0.1"));
    assertThat(out.resolve("t.dataset.txt")).exists();
  }

  @Test
  void aRegressionDatasetPrintsMeanAbsoluteErrorsBesideTheMeanPredictor(@TempDir Path out) throws Exception {
    int code = Main.execute("train-dataset", "--dataset", "regress", "--models", "gin:hidden=8,layers=1",
        "--protocol", "quick", "--fold", "0", "--seeds", "0", "--max-epochs", "2", "--name", "r", "--out", out.toString());
    assertThat(code).as(console.err()).isZero();
    assertThat(console.out()).contains("gin:hidden=8,layers=1 on regress (300 graphs, regression)")
        .contains("test MAE").contains("mean MAE").contains("predicting the training mean").doesNotContain("test %");
    assertThat(Files.readAllLines(out.resolve("r.dataset.jsonl"))).singleElement().satisfies(l -> assertThat(l)
        .contains("\"taskType\":\"regression\"").contains("\"testMae\":").contains("\"meanPredictorTestMae\":")
        .contains("\"testOutputs\":[").doesNotContain("testAccuracy"));
  }

  @Test
  void badUsageExitsTwoAndABadDatasetOne() {
    assertThat(Main.execute("train-dataset", "--dataset", "csl", "--protocol", "nope")).isEqualTo(2);
    assertThat(console.err()).contains("unknown protocol 'nope'");
    assertThat(Main.execute("train-dataset", "--dataset", "csl", "--models", "gin:hidden=x")).isEqualTo(2);
    assertThat(Main.execute("train-dataset", "--dataset", "nosuch", "--protocol", "quick")).isEqualTo(2);
    assertThat(console.err()).contains("--dataset: unknown dataset 'nosuch'");
    assertThat(Main.execute("train-dataset", "--dataset", "csl:seed=x", "--protocol", "quick")).isEqualTo(2);
    assertThat(Main.execute("train-dataset", "--dataset", "tu:/nonexistent/MUTAG", "--protocol", "quick",
        "--fold", "0", "--seeds", "0")).isEqualTo(1);
    assertThat(console.err()).contains("MUTAG_A.txt");
  }
}

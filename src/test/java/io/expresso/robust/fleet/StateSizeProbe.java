package io.expresso.robust.fleet;

import io.expresso.count.CountingSplit;
import io.expresso.count.Pattern;
import io.expresso.count.RobustnessData;
import io.expresso.model.RegressorSpec;
import io.expresso.robust.TrainResumeTest;
import io.expresso.train.CountRegressionTrainer;
import io.expresso.train.ProgressSaving;
import io.expresso.train.TrainingState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A developer's tool, not a test: what Adam's moments add to a running state in a {@code states
 * export} file (docs/gpu.md, "Size"). Trains each paper-size count model 2 epochs on a 60-graph ER
 * split and writes its epoch-2 state alone, with and without the moments, as the export does.
 *
 * <pre>
 * ./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) io.expresso.robust.fleet.StateSizeProbe
 * </pre>
 */
public final class StateSizeProbe {

  private StateSizeProbe() {}

  public static void main(String[] args) throws Exception {
    CountingSplit d = RobustnessData.erdosRenyi(60, RobustnessData.ER_IN, 5);
    for (String spec : new String[] {"i2gnn:hidden=64,layers=5,hops=1", "ppgn:in=1,hidden=128,d=64,layers=4,depth=2"}) {
      List<TrainingState> states = new ArrayList<>();
      new CountRegressionTrainer().train(RegressorSpec.parse(spec), Pattern.TRIANGLE, d.train(), d.validation(),
          new CountRegressionTrainer.Settings(3, 16, 1e-3f, 1, "cpu", 0.5f, 20, 0, true), null, () -> false,
          new ProgressSaving(null, 1, null, states::add)).model().close();
      TrainStateArchive.Entry entry = new TrainStateArchive.Entry(TrainResumeTest.job("probe", 1), states.get(1));
      Path with = Files.createTempFile("with-moments", ".bin");
      Path without = Files.createTempFile("without-moments", ".bin");
      try {
        TrainStateArchive.write(with, List.of(entry));
        TrainStateArchive.write(without, List.of(entry.withoutMoments()));
        System.out.printf(Locale.ROOT, "%s: raw parameters %,d B, raw moments %,d B; compressed with moments %,d B,"
            + " without %,d B%n", spec, entry.state().parameters().length, entry.state().adam().length,
            Files.size(with), Files.size(without));
      } finally {
        Files.deleteIfExists(with);
        Files.deleteIfExists(without);
      }
    }
  }
}

package io.expresso.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.attack.AdversarialRule;
import io.expresso.attack.AttackResult;
import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.report.RobustnessWriter;
import io.expresso.report.SuccessPlot;
import io.expresso.testing.Pngs;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole study at scale {@code tiny} in this process: train, attack, transfer, OOD, report. */
class RobustnessStudyTest {

  @Test
  void tinyStudyEndToEndInProcess(@TempDir Path out) throws Exception {
    RobustnessExperiment exp = new RobustnessExperiment("t1", Scale.TINY, List.of("i2gnn"),
        List.of(Pattern.TRIANGLE), false);
    RobustnessExperiment withOod = new RobustnessExperiment("t1", Scale.TINY, List.of("i2gnn"),
        List.of(Pattern.TRIANGLE), true);
    assertThat(withOod.trainJobs()).hasSize(4); // 2 seeds × (d1 model that is also attacked, d2 model)
    assertThat(withOod.headJobs()).hasSize(2);
    assertThat(exp.trainJobs()).hasSize(2);
    assertThat(exp.headJobs()).isEmpty();
    assertThat(exp.attackJobs()).hasSize(6); // 2 seeds × 3 spaces
    List<String> progress = new ArrayList<>();
    RobustnessReport report;
    try (LocalExecutor ex = new LocalExecutor("cpu")) {
      report = exp.run(ex, progress::add);
    }
    assertThat(progress).hasSize(8);
    // Every attack's bookkeeping is consistent with an independent recount.
    AdversarialRule rule = AdversarialRule.paper();
    int successes = 0;
    for (AttackOutcome o : report.attacks()) {
      assertThat(o.summary().attacked()).isPositive().isLessThanOrEqualTo(Scale.TINY.attacked());
      assertThat(o.summary().results()).hasSize(o.summary().attacked());
      int[] budgets = o.summary().budgets();
      for (int b = 0; b < budgets.length; b++) {
        int within = 0;
        for (AttackResult r : o.summary().results()) {
          within += r.adversarialAt(budgets[b]) ? 1 : 0;
        }
        assertThat(o.summary().successRate()[b] * o.summary().attacked()).as("successes within budget %d, recounted", budgets[b])
            .isCloseTo(within, org.assertj.core.data.Offset.offset(1e-9));
      }
      long succeeded = o.summary().results().stream().filter(AttackResult::success).count();
      assertThat(o.summary().successRate()[budgets.length - 1] * o.summary().attacked())
          .as("the largest budget's rate is the full search's").isCloseTo(succeeded, org.assertj.core.data.Offset.offset(1e-9));
      for (AttackResult r : o.summary().results()) {
        assertThat(r.cleanCorrect()).isTrue();
        assertThat(r.cleanCount()).isEqualTo(InducedCounts.count(r.cleanGraph(), Pattern.TRIANGLE));
        if (r.success()) {
          successes++;
          Graph adv = r.adversarialGraph();
          assertThat(r.adversarialCount()).isEqualTo(InducedCounts.count(adv, Pattern.TRIANGLE));
          assertThat(rule.isAdversarial(r.cleanPrediction(), r.cleanCount(), r.adversarialPrediction(),
              r.adversarialCount())).isTrue();
          assertThat(flips(r.cleanGraph(), adv)).isEqualTo(r.steps().size());
          assertThat(r.firstAdversarialStep()).isBetween(1, r.steps().size());
        }
      }
      for (double rate : o.summary().successRate()) {
        assertThat(rate).isBetween(0.0, 1.0);
      }
      for (int b = 0; b < o.transferRate().length; b++) {
        assertThat(o.transferRate()[b]).isLessThanOrEqualTo(o.summary().successRate()[b]);
      }
    }
    assertThat(report.errors()).hasSize(1);
    assertThat(report.auc()).hasSize(3);
    assertThat(report.ood()).isEmpty();
    List<Path> files = RobustnessWriter.write(report, out);
    assertThat(files).extracting(p -> p.getFileName().toString())
        .contains("robustness.md", "robustness.json", "success-i2gnn-triangle.png");
    String md = Files.readString(out.resolve("robustness.md"));
    assertThat(md).contains("## AUC of success rate over budget", "| i2gnn | triangle | any |");
    // the per-success checks above ran: the tiny study's seeds do find adversarial examples
    assertThat(successes).as("successful attacks checked").isPositive();
    BufferedImage png = Pngs.read(out.resolve("success-i2gnn-triangle.png"));
    assertThat(new int[] {png.getWidth(), png.getHeight()}).as("three panels").isEqualTo(SuccessPlot.size(3));
    int w = png.getWidth() / 3;
    for (int panel = 0; panel < 3; panel++) {
      assertThat(Pngs.pixels(png, SuccessPlot.BLUE, panel * w, (panel + 1) * w)).as("the success curve in panel %d",
          panel).isPositive();
      assertThat(Pngs.pixels(png, SuccessPlot.ORANGE, panel * w, (panel + 1) * w)).as("the transfer curve in panel %d",
          panel).isPositive();
    }
    System.out.println(md + "\nsuccessful attacks: " + successes);
  }

  @Test
  void badPlansAreClearErrors() {
    assertThatThrownBy(() -> new RobustnessExperiment("x", Scale.TINY, List.of("gcn"), List.of(Pattern.TRIANGLE), true))
        .hasMessageContaining("unknown count-regression model 'gcn'");
    assertThatThrownBy(() -> new RobustnessExperiment("x", Scale.TINY, List.of("i2gnn"), List.of(), true))
        .hasMessageContaining("at least one");
    assertThatThrownBy(() -> Scale.fromName("huge")).hasMessageContaining("unknown scale 'huge'");
    assertThatThrownBy(() -> StudyData.get("mnist", Scale.TINY)).hasMessageContaining("unknown dataset 'mnist'");
  }

  private static int flips(Graph a, Graph b) {
    int d = 0;
    for (int u = 0; u < a.n(); u++) {
      for (int v = u + 1; v < a.n(); v++) {
        if (a.adjacent(u, v) != b.adjacent(u, v)) {
          d++;
        }
      }
    }
    return d;
  }
}

package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.expresso.report.CategoryBarPlot;
import io.expresso.testing.BrokerAndWorker;
import io.expresso.testing.Pngs;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multi-seed BREC experiment through a real embedded broker and worker: {@code publish brec
 * --seeds 0-2} of the four-pair excerpt under 3-WL, then {@code results --out}: the tables count
 * the best seed's pairs (not three seeds mixed), with BREC's verdict, the paper's 3-WL row, the
 * 140-pair Regular and the plot.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(180)
class PublishBrecSeedsTest {

  private static final String EXCERPT = "brec:../shared/data/brec-excerpt/brec_excerpt.npy#indices=0,60,110,160";

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @RegisterExtension static final BrokerAndWorker CLUSTER = new BrokerAndWorker("cpu:2");
  private String bootstrap;

  @BeforeAll
  void bootstrap() {
    bootstrap = CLUSTER.bootstrap();
  }

  @Test
  void threeSeedsOfTheExcerptReportTheBestSeedBesideThePaper(@TempDir Path out) throws Exception {
    assertThat(Main.execute("publish", "brec", "--bootstrap", bootstrap, "--experiment", "brec-seeds",
        "--suite", EXCERPT, "--model", "3-wl", "--seeds", "0-2")).as(console.err()).isZero();
    assertThat(console.out()).contains("published 12 pair tasks (4 pairs x 3 seeds, 3-wl)");
    assertThat(Main.execute("results", "--bootstrap", bootstrap, "--experiment", "brec-seeds", "--wait", "12",
        "--timeout", "120", "--out", out.toString())).as(console.err()).isZero();
    // 3-WL is exact: every seed separates pairs 0, 60 and 160, not 110 (srg(16,6,2,2)); the earliest seed wins the tie
    assertThat(console.out()).contains("3 seeds (0..2), best seed 0 by BREC's rule; counts: no seed failed reliability")
        .contains("Regular (paper grouping)").contains("270/400");
    String md = Files.readString(out.resolve("brec-seeds.report.md"));
    assertThat(md).contains("| 3-wl | Regular | 2 | 1 | 50.0 | 2 | 0 |",
        "| category | pairs | ours (seed 0) | ours % | paper: 3-WL | paper % |",
        "| Basic | 1 | 1 | 100.0 | 60/60 | 100.0 |",
        "| Regular | 2 | 1 | 50.0 | - | - |",
        "| Regular (paper grouping) | 2 | 1 | 50.0 | 50/140 | 35.7 |",
        "| Extension | 1 | 1 | 100.0 | 100/100 | 100.0 |",
        "| total | 4 | 3 | 75.0 | 270/400 | 67.5 |",
        "![accuracy per category and model](brec-seeds.accuracy.png)");
    BufferedImage png = Pngs.read(out.resolve("brec-seeds.accuracy.png"));
    // the full-height bars of 3-WL: Basic, Extension (100%); Regular, Regular (140) and total are shorter
    List<Pngs.Bar> bars = Pngs.bars(png, CategoryBarPlot.colour(0));
    assertThat(bars).hasSize(5);
    int full = bars.stream().mapToInt(Pngs.Bar::height).max().orElseThrow();
    assertThat(bars).filteredOn(b -> b.height() == full).hasSize(2);
    assertThat(bars.get(4).height()).as("total: 3 of 4").isCloseTo((int) Math.round(0.75 * full), within(2));
  }
}

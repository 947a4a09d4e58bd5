package io.expresso.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Result;
import io.expresso.testing.Pngs;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-seed pair experiments are summarised as BREC's leaderboard does: per configuration the
 * best seed by {@code Real_correct}, the configuration counting only if no seed failed reliability;
 * on BREC, beside the paper's row with its 140-pair Regular, and plotted.
 */
class SeedLeaderboardTest {

  private static final String SUITE = "brec:/data/brec_v3.npy";
  private static final String MODEL = "ppgn:layers=5,hidden=32";

  /** Pair index and category of the eight pairs every seed runs. */
  private static final int[] INDEX = {0, 1, 60, 61, 160, 260, 360, 380};
  private static final String[] CATEGORY = {"Basic", "Basic", "Regular", "Regular", "Extension", "CFI",
      "4-Vertex Condition", "Distance Regular"};

  private static Result pair(int seed, int k, boolean distinguished, boolean reliable) {
    return Result.newBuilder().setExperimentId("brec").setTaskId("brec/" + MODEL + "/" + INDEX[k] + "/s" + seed)
        .setPair(PairResult.newBuilder().setSuiteId(SUITE).setMethod(MODEL).setSeed(seed).setPairIndex(INDEX[k])
            .setCategory(CATEGORY[k]).setDistinguished(distinguished).setReliable(reliable)).build();
  }

  /**
   * Seed 0 distinguishes 3 pairs; seed 1 distinguishes 5 (Basic 2, Regular 2, Extension 1), all
   * reliably: the best; seed 2 distinguishes 6 but fails reliability on 2 (Real_correct 4), so it
   * is not the best and the configuration does not count. Results arrive seed-interleaved, CFI first.
   */
  private static List<Result> threeSeeds() {
    boolean[][] distinguished = {
        {true, true, true, false, false, false, false, false},
        {true, true, true, true, true, false, false, false},
        {true, true, true, true, true, true, false, false}};
    boolean[][] reliable = {
        {true, true, true, true, true, true, true, true},
        {true, true, true, true, true, true, true, true},
        {true, true, true, true, true, true, false, false}};
    List<Result> rs = new ArrayList<>();
    for (int k = INDEX.length - 1; k >= 0; k--) {
      for (int seed = 0; seed < 3; seed++) {
        rs.add(pair(seed, k, distinguished[seed][k], reliable[seed][k]));
      }
    }
    return rs;
  }

  @Test
  void bestSeedByBrecRuleAndAFailingSeedMakesTheConfigurationNotCount() {
    ResultSummary s = new ResultSummary("brec", threeSeeds());
    assertThat(s.leaderboard()).singleElement().satisfies(e -> {
      assertThat(e.seeds()).isEqualTo(3);
      assertThat(e.bestSeed()).as("Real_correct 5 beats seed 2's 6 - 2 = 4").isEqualTo(1);
      assertThat(e.counts()).isFalse();
      assertThat(e.configuration().failingSeeds()).containsExactly(2L);
      assertThat(e.bestSeedCategories()).extracting(SeedLeaderboard.CategoryCounts::category)
          .as("suite order, by pair index").containsExactly("Basic", "Regular", "Extension", "CFI",
              "4-Vertex Condition", "Distance Regular");
      assertThat(e.paperRegular()).get().satisfies(c -> {
        assertThat(c.pairs()).isEqualTo(4);
        assertThat(c.reliablyDistinguished()).isEqualTo(2);
      });
      assertThat(e.total().reliablyDistinguished()).isEqualTo(5);
    });
    // the table rows are seed 1's pairs, not 24 results of three seeds mixed together
    assertThat(s.rows()).extracting(ResultSummary.Row::category, ResultSummary.Row::tasks,
        ResultSummary.Row::distinguished, ResultSummary.Row::reliable).containsExactly(
            org.assertj.core.groups.Tuple.tuple("Basic", 2, 2, 2),
            org.assertj.core.groups.Tuple.tuple("Regular", 2, 2, 2),
            org.assertj.core.groups.Tuple.tuple("Extension", 1, 1, 1),
            org.assertj.core.groups.Tuple.tuple("CFI", 1, 0, 1),
            org.assertj.core.groups.Tuple.tuple("4-Vertex Condition", 1, 0, 1),
            org.assertj.core.groups.Tuple.tuple("Distance Regular", 1, 0, 1));
  }

  /** An error result of a pair task as the worker writes it: the pair's identity kept, nothing measured. */
  private static Result failed(int seed, int k) {
    return Result.newBuilder().setExperimentId("brec").setTaskId("brec/" + MODEL + "/" + INDEX[k] + "/s" + seed)
        .setPair(PairResult.newBuilder().setSuiteId(SUITE).setMethod(MODEL).setSeed(seed).setPairIndex(INDEX[k])
            .setCategory(CATEGORY[k]))
        .setProvenance(io.expresso.proto.v1.Provenance.newBuilder().setTaskKind("pair"))
        .setError(io.expresso.proto.v1.TaskError.newBuilder().setReason("timeout").setMessage("ran past 2h")).build();
  }

  @Test
  void aFailedPairCountsInItsCategorysErrorsAndAgainstItsSeed() throws Exception {
    // seed 1's Extension pair (distinguished in threeSeeds) fails: Real_correct 5 - 1 - 1 = 3, so
    // seed 2 (6 - 2 = 4) is now the best
    List<Result> rs = new ArrayList<>(threeSeeds());
    rs.replaceAll(r -> r.getPair().getSeed() == 1 && r.getPair().getPairIndex() == INDEX[4] ? failed(1, 4) : r);
    ResultSummary s = new ResultSummary("brec", rs);
    SeedLeaderboard.Entry e = s.leaderboard().get(0);
    assertThat(e.configuration().seeds().get(1).realCorrect()).isEqualTo(3);
    assertThat(e.bestSeed()).isEqualTo(2);
    assertThat(e.configuration().failingSeeds()).containsExactly(1L, 2L);
    assertThat(s.errors()).isEqualTo(1);
    assertThat(s.rows()).extracting(ResultSummary.Row::method).containsOnly(MODEL);

    // one seed: the failed pair is in its category's row, in every reader
    List<Result> one = rs.stream().filter(r -> r.getPair().getSeed() == 1).toList();
    ResultSummary single = new ResultSummary("brec", one);
    assertThat(single.rows()).extracting(ResultSummary.Row::category, ResultSummary.Row::tasks,
        ResultSummary.Row::distinguished, ResultSummary.Row::errors).contains(
            org.assertj.core.groups.Tuple.tuple("Extension", 1, 0, 1));
    assertThat(single.rows()).extracting(ResultSummary.Row::errors).containsExactly(0, 0, 1, 0, 0, 0);
    JsonNode j = new ObjectMapper().readTree(single.json());
    assertThat(j.get("errors").asInt()).isEqualTo(1);
    assertThat(j.get("categories").get(2).get("name").asText()).isEqualTo("Extension");
    assertThat(j.get("categories").get(2).get("errors").asInt()).isEqualTo(1);
    JsonNode lb = j.get("leaderboard").get(0);
    assertThat(lb.get("seeds").get(0).get("reliability_failures").asInt()).isEqualTo(1);
    assertThat(lb.get("categories")).filteredOn(c -> c.get("name").asText().equals("Extension")).singleElement()
        .satisfies(c -> {
          assertThat(c.get("pairs").asInt()).isEqualTo(1);
          assertThat(c.get("reliably_distinguished").asInt()).isZero();
          assertThat(c.get("errors").asInt()).isEqualTo(1);
        });
    String text = ResultTables.render(single);
    assertThat(text).containsPattern("Extension\\s+1\\s+0\\s+-\\s+0\\s+1")
        .containsPattern("total\\s+8\\s+4\\s+57\\.1%\\s+7\\s+1")
        .doesNotContain("pair tasks:");
    assertThat(ReportFiles.markdown(single)).contains("| " + MODEL + " | Extension | 1 | 0 | - | 0 | 1 |",
        "| Extension | 1 | 0 | 0.0 | 100/100 | 100.0 |");
    assertThat(ReportFiles.html(single)).contains("<td>Extension</td><td class=n>1</td>");
  }

  @Test
  void aConfigurationWhoseSeedsAllPassCountsAndSingleSeedRowsStayAsBefore() {
    List<Result> rs = threeSeeds().stream().filter(r -> r.getPair().getSeed() < 2).toList();
    ResultSummary s = new ResultSummary("brec", rs);
    assertThat(s.leaderboard().get(0).counts()).isTrue();
    assertThat(s.leaderboard().get(0).bestSeed()).isEqualTo(1);

    List<Result> one = threeSeeds().stream().filter(r -> r.getPair().getSeed() == 0).toList();
    ResultSummary single = new ResultSummary("brec", one);
    assertThat(single.rows()).extracting(ResultSummary.Row::tasks).containsExactly(2, 2, 1, 1, 1, 1);
    assertThat(single.rows()).extracting(ResultSummary.Row::distinguished).containsExactly(2, 1, 0, 0, 0, 0);
  }

  @Test
  void theReportOfABrecExperimentHasThePaperRowAndThe140PairRegular(@TempDir Path dir) throws Exception {
    ResultSummary s = new ResultSummary("brec", threeSeeds());
    String md = ReportFiles.markdown(s);
    assertThat(md).contains("does NOT count: seed 2 failed reliability", "best seed 1 by BREC's rule",
        "| category | pairs | ours (seed 1) | ours % | paper: PPGN | paper % |",
        "| Basic | 2 | 2 | 100.0 | 60/60 | 100.0 |",
        "| Regular | 2 | 2 | 100.0 | - | - |",
        "| 4-Vertex Condition | 1 | 0 | 0.0 | - | - |",
        "| Regular (paper grouping) | 4 | 2 | 50.0 | 50/140 | 35.7 |",
        "| CFI | 1 | 0 | 0.0 | 23/100 | 23.0 |",
        "| total | 8 | 5 | 62.5 | 233/400 | 58.3 |",
        "![accuracy per category and model](brec.accuracy.png)");
    assertThat(ReportFiles.html(s)).contains("<th>paper: PPGN</th>", "<td>Regular (paper grouping)</td>",
        "<img src=\"brec.accuracy.png\"");
    JsonNode lb = new ObjectMapper().readTree(s.json()).get("leaderboard").get(0);
    assertThat(lb.get("best_seed").asLong()).isEqualTo(1);
    assertThat(lb.get("counts").asBoolean()).isFalse();
    assertThat(lb.get("seeds")).hasSize(3);
    assertThat(lb.get("seeds").get(2).get("real_correct").asInt()).isEqualTo(4);
    assertThat(lb.get("paper").get("total").asInt()).isEqualTo(233);
    JsonNode grouping = lb.get("categories").get(6);
    assertThat(grouping.get("name").asText()).isEqualTo("Regular (paper grouping)");
    assertThat(grouping.get("paper").asInt()).isEqualTo(50);

    List<Path> files = ReportFiles.write(dir, s);
    assertThat(files).extracting(p -> p.getFileName().toString()).contains("brec.accuracy.png");
  }

  @Test
  void aJavaThatCannotDrawStillWritesEveryTableAndSaysWhyThePlotIsMissing(@TempDir Path dir) throws Exception {
    ResultSummary s = new ResultSummary("brec", threeSeeds());
    List<Path> files = ReportFiles.write(dir, s, (png, summary) -> {
      throw new UnsatisfiedLinkError("/jre/lib/libfontmanager.so: libharfbuzz.so.0: cannot open shared object file");
    });
    assertThat(files).extracting(p -> p.getFileName().toString())
        .containsExactly("brec.results.jsonl", "brec.summary.json", "brec.report.md", "brec.report.html");
    assertThat(dir.resolve("brec.accuracy.png")).doesNotExist();
    String md = Files.readString(dir.resolve("brec.report.md"));
    assertThat(md).contains("| total | 8 | 5 | 62.5 | 233/400 | 58.3 |",
        "no plot: this Java runtime cannot draw text here (UnsatisfiedLinkError: /jre/lib/libfontmanager.so:"
            + " libharfbuzz.so.0").doesNotContain("brec.accuracy.png");
    assertThat(Files.readString(dir.resolve("brec.report.html"))).contains("no plot: this Java runtime")
        .doesNotContain("<img");
  }

  @Test
  void thePlotHasOneBarGroupPerCategoryWithBarsAsTallAsTheAccuracies(@TempDir Path dir) throws Exception {
    ResultSummary s = new ResultSummary("brec", threeSeeds());
    ReportFiles.write(dir, s);
    BufferedImage img = Pngs.read(dir.resolve("brec.accuracy.png"));
    // one model: 8 groups wide, a legend of its solid and its pale bars
    assertThat(new int[] {img.getWidth(), img.getHeight()}).isEqualTo(CategoryBarPlot.size(8, 1));
    // groups: Basic, Regular, 4-Vertex, Distance Regular, Regular (140), Extension, CFI, total;
    // ours = reliably distinguished of seed 1 (0% draws no bar)
    double[] ours = {1.0, 1.0, 0.0, 0.0, 0.5, 1.0, 0.0, 5 / 8.0};
    double[] paper = {1.0, Double.NaN, Double.NaN, Double.NaN, 50 / 140.0, 1.0, 0.23, 233 / 400.0};
    List<Pngs.Bar> oursBars = Pngs.bars(img, CategoryBarPlot.colour(0));
    List<Pngs.Bar> paperBars = Pngs.bars(img, CategoryBarPlot.paleColour(0));
    int full = oursBars.get(0).height(); // Basic: 100%
    assertThat(full).as("a 100% bar fills most of the plot's height").isGreaterThan(img.getHeight() / 3);
    assertHeights(oursBars, full, ours, "one solid bar per category with pairs distinguished");
    assertHeights(paperBars, full, paper, "a paper bar only where Table 2 has a number");
    // each paper bar stands beside the solid bar of its group, to its right
    assertThat(paperBars.get(0).left()).isGreaterThan(oursBars.get(0).right());
  }

  /** One bar per positive value (none for NaN or 0), each as tall as its value of a full bar, to 1%. */
  private static void assertHeights(List<Pngs.Bar> bars, int full, double[] values, String what) {
    List<Double> drawn = new ArrayList<>();
    for (double v : values) {
      if (!Double.isNaN(v) && v > 0) {
        drawn.add(v);
      }
    }
    assertThat(bars).as(what).hasSize(drawn.size());
    for (int i = 0; i < bars.size(); i++) {
      assertThat((double) bars.get(i).height() / full).as(what + ": bar " + i).isCloseTo(drawn.get(i), within(0.01));
    }
  }
}

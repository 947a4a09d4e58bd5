package io.expresso.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.stats.MeanStd;
import io.expresso.testing.Pngs;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's PNG plots: files that decode, of the size they promise, drawing the data given. */
class PlotsTest {

  private static final double[] FRACTIONS = {0.01, 0.05, 0.10, 0.25};

  private static MeanStd[] rates(double... v) {
    MeanStd[] out = new MeanStd[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = MeanStd.ofMeasured(v[i], v[i]);
    }
    return out;
  }

  @Test
  void successCurvesStandWhereTheirRatesAre(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("success-gin-triangle.png");
    SuccessPlot.write(file, "gin triangle", List.of(
        new SuccessPlot.Panel("space any", FRACTIONS, rates(0.9, 0.9, 0.9, 0.9), rates(0.5, 0.5, 0.5, 0.5)),
        new SuccessPlot.Panel("space count-preserving", FRACTIONS, rates(0.1, 0.1, 0.1, 0.1),
            rates(Double.NaN, Double.NaN, Double.NaN, Double.NaN))));
    BufferedImage img = Pngs.read(file);
    assertThat(new int[] {img.getWidth(), img.getHeight()}).isEqualTo(SuccessPlot.size(2));
    assertThat(Pngs.colours(img)).as("not blank").isGreaterThan(10);
    int w = SuccessPlot.PANEL_W;
    // the same legend in both panels: the difference is the curves, 90% high in the first, 10% in the second
    assertThat(Pngs.meanRow(img, SuccessPlot.BLUE, 0, w)).as("a high curve stands higher")
        .isLessThan(Pngs.meanRow(img, SuccessPlot.BLUE, w, 2 * w) - 50);
    assertThat(Pngs.pixels(img, SuccessPlot.ORANGE, 0, w)).as("a transfer curve with rates")
        .isGreaterThan(Pngs.pixels(img, SuccessPlot.ORANGE, w, 2 * w) + 100);
  }

  @Test
  void aPlotOfNothingIsStillAPlot(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("empty.accuracy.png");
    CategoryBarPlot.write(file, "Experiment e: accuracy per BREC category", List.of(), List.of());
    BufferedImage img = Pngs.read(file);
    assertThat(new int[] {img.getWidth(), img.getHeight()}).isEqualTo(CategoryBarPlot.size(0, 0));
    assertThat(Pngs.colours(img)).as("not blank").isGreaterThan(10);
    assertThat(Pngs.bars(img, CategoryBarPlot.colour(0))).as("the legend's swatch alone").isEmpty();
  }

  @Test
  void aModelWithoutThePapersRowHasNoPaleBars(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("mine.accuracy.png");
    double nan = Double.NaN;
    CategoryBarPlot.write(file, "mine", List.of("Basic", "CFI"), List.of(
        new CategoryBarPlot.Series("mine (best seed 0)", null, new double[] {0.5, 1.0}, new double[] {nan, nan}),
        new CategoryBarPlot.Series("3-wl (best seed 0)", "3-WL", new double[] {1.0, nan}, new double[] {1.0, 0.6})));
    BufferedImage img = Pngs.read(file);
    assertThat(Pngs.bars(img, CategoryBarPlot.colour(0))).hasSize(2);
    assertThat(Pngs.pixels(img, CategoryBarPlot.paleColour(0), 0, img.getWidth())).isZero();
    assertThat(Pngs.bars(img, CategoryBarPlot.colour(1))).hasSize(1);
    assertThat(Pngs.bars(img, CategoryBarPlot.paleColour(1))).hasSize(2);
  }
}

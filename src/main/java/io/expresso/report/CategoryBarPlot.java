package io.expresso.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * Accuracy per category per model as grouped bars (XChart), written as a PNG: one group per
 * category, in each group one solid bar per model (its best seed) and, where the paper has a
 * number, a pale bar of the same colour beside it (BREC's Table 2); the legend below names both.
 * Bars are filled without anti-aliasing, so each model's colour is exact in the image.
 */
public final class CategoryBarPlot {

  /**
   * One model.
   *
   * @param label the model as the legend names its solid bars
   * @param paperLabel the paper's row beside it (legend of the pale bars), null where there is none
   * @param ours accuracy in [0, 1] per group, NaN where the model has no pairs in it
   * @param paper the paper's accuracy per group, NaN where it has none
   */
  public record Series(String label, String paperLabel, double[] ours, double[] paper) {}

  /** Model colours, in turn (matplotlib's tab10). */
  public static final List<Color> PALETTE = List.of(new Color(31, 119, 180), new Color(255, 127, 14),
      new Color(44, 160, 44), new Color(214, 39, 40), new Color(148, 103, 189), new Color(140, 86, 75),
      new Color(227, 119, 194), new Color(127, 127, 127), new Color(188, 189, 34), new Color(23, 190, 207));

  /** Width of one category's group of bars; wide enough for a name such as "Dist. regular". */
  static final int GROUP_W = 110;
  /** Height of the plot without its legend. */
  static final int BASE_H = 460;
  /** Height of one legend row. */
  static final int LEGEND_ROW_H = 22;

  static {
    Plots.headless();
  }

  private CategoryBarPlot() {}

  /** The colour of a model's bars. */
  public static Color colour(int series) {
    return PALETTE.get(series % PALETTE.size());
  }

  /** The pale colour of the paper's bar for a model: its colour mixed 60% toward white. */
  public static Color paleColour(int series) {
    Color c = colour(series);
    return new Color(pale(c.getRed()), pale(c.getGreen()), pale(c.getBlue()));
  }

  private static int pale(int v) {
    return v + (255 - v) * 3 / 5;
  }

  /** The size of the image for {@code groups} categories and {@code series} models: {width, height}. */
  public static int[] size(int groups, int series) {
    int legendRows = 2 * Math.max(1, series);
    return new int[] {Math.max(640, 120 + Math.max(1, groups) * GROUP_W), BASE_H + LEGEND_ROW_H * legendRows};
  }

  /** Writes the plot; {@code groups} names the categories, each series has one value per group. */
  public static void write(Path file, String title, List<String> groups, List<Series> series) throws IOException {
    Plots.writePng(chart(title, groups, series), file);
  }

  static CategoryChart chart(String title, List<String> groups, List<Series> series) {
    int[] size = size(groups.size(), series.size());
    CategoryChart chart = new CategoryChartBuilder().width(size[0]).height(size[1]).title(title)
        .xAxisTitle("BREC category").yAxisTitle("pairs reliably distinguished").build();
    CategoryStyler st = chart.getStyler();
    Plots.style(st);
    st.setLegendPosition(LegendPosition.OutsideS);
    st.setLegendLayout(LegendLayout.Vertical);
    st.setYAxisMin(0.0);
    st.setYAxisMax(1.0);
    st.setYAxisDecimalPattern("#%");
    st.setAvailableSpaceFill(0.8);
    st.setOverlapped(false);
    // XChart draws nothing without a category or a series: an empty plot says so in its title
    List<String> xs = groups.isEmpty() ? List.of("no BREC category") : groups;
    Set<String> names = new HashSet<>();
    for (int si = 0; si < series.size(); si++) {
      Series s = series.get(si);
      List<Double> ours = values(s.ours(), xs.size());
      List<Double> paper = values(s.paper(), xs.size());
      add(chart, unique(names, s.label()), xs, ours, colour(si));
      if (paper.stream().anyMatch(v -> v != null)) {
        add(chart, unique(names, "BREC paper, Table 2: " + (s.paperLabel() == null ? s.label() : s.paperLabel())), xs,
            paper, paleColour(si));
      }
    }
    if (series.isEmpty()) {
      add(chart, "no results", xs, values(null, xs.size()), colour(0));
    }
    return chart;
  }

  private static void add(CategoryChart chart, String name, List<String> xs, List<Double> ys, Color c) {
    CategorySeries s = chart.addSeries(name, xs, ys);
    s.setFillColor(c);
  }

  private static String unique(Set<String> names, String name) {
    String n = name;
    for (int i = 2; !names.add(n); i++) {
      n = name + " #" + i;
    }
    return n;
  }

  /** One value per group in [0, 1], null where there is none (NaN, or past the end of {@code v}). */
  private static List<Double> values(double[] v, int n) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(v == null || i >= v.length || Double.isNaN(v[i]) ? null : Math.min(1, Math.max(0, v[i])));
    }
    return out;
  }

  /** Formats an accuracy for alt texts: "62.5%". */
  public static String percent(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }
}

package io.expresso.report;

import io.expresso.stats.MeanStd;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Success rate versus budget (Campi et al., Fig. 5), one XChart panel per perturbation space side
 * by side under the plot's title: the non-robust rate (blue) and the transfer rate (orange), each
 * the mean over seeds with the standard error as error bars.
 */
public final class SuccessPlot {

  /** One panel: x = budget fractions, rates in [0, 1]. */
  record Panel(String title, double[] fractions, MeanStd[] success, MeanStd[] transfer) {}

  static final int PANEL_W = 400;
  static final int PANEL_H = 360;
  static final int TITLE_H = 30;
  /** The non-robust rate's colour. */
  public static final Color BLUE = new Color(31, 119, 180);
  /** The transfer rate's colour. */
  public static final Color ORANGE = new Color(255, 127, 14);

  static {
    Plots.headless();
  }

  private SuccessPlot() {}

  /** The image's size for {@code panels} panels: {width, height}. */
  public static int[] size(int panels) {
    return new int[] {PANEL_W * Math.max(1, panels), TITLE_H + PANEL_H};
  }

  static void write(Path file, String title, List<Panel> panels) throws IOException {
    int[] size = size(panels.size());
    BufferedImage img = new BufferedImage(size[0], size[1], BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, size[0], size[1]);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString(title, 10, 20);
    for (int i = 0; i < panels.size(); i++) {
      g.drawImage(Plots.image(chart(panels.get(i))), i * PANEL_W, TITLE_H, null);
    }
    g.dispose();
    ImageIO.write(img, "png", file.toFile());
  }

  static XYChart chart(Panel p) {
    XYChart chart = new XYChartBuilder().width(PANEL_W).height(PANEL_H).title(p.title())
        .xAxisTitle("budget (% of mean edges)").yAxisTitle("success rate").build();
    XYStyler st = chart.getStyler();
    Plots.style(st);
    st.setLegendPosition(LegendPosition.OutsideS);
    st.setYAxisMin(0.0);
    st.setYAxisMax(1.0);
    st.setYAxisDecimalPattern("0.00");
    st.setXAxisDecimalPattern("0'%'");
    st.setErrorBarsColorSeriesColor(true);
    st.setMarkerSize(7);
    double[] x = Arrays.stream(p.fractions()).map(f -> 100 * f).toArray();
    series(chart, "non-robust", x, p.success(), BLUE);
    series(chart, "non-robust (transfer)", x, p.transfer(), ORANGE);
    return chart;
  }

  private static void series(XYChart chart, String name, double[] x, MeanStd[] rates, Color c) {
    double[] mean = new double[x.length];
    double[] se = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      MeanStd r = rates == null || i >= rates.length ? null : rates[i];
      mean[i] = r == null ? Double.NaN : r.mean();
      se[i] = r == null || Double.isNaN(r.se()) ? 0 : r.se();
    }
    XYSeries s = chart.addSeries(name, x, mean, se);
    s.setLineColor(c);
    s.setMarkerColor(c);
    s.setMarker(SeriesMarkers.CIRCLE);
  }
}

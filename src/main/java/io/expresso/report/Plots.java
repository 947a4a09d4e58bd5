package io.expresso.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * What the report's plots share: XChart, headless (no display needed: {@code java.awt.headless}
 * is set before AWT starts, unless set otherwise), one look (white, sans-serif, shapes filled
 * without anti-aliasing so a series' colour is exact in the image), and PNG files.
 */
final class Plots {

  static {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  /** Does nothing but load this class, so headless is set before a plot touches AWT. */
  static void headless() {}

  /** The plot's frame (tests find the plot area by it: testing/Pngs). */
  static final Color FRAME = Color.GRAY;

  private Plots() {}

  /** The shared look. */
  static void style(Styler s) {
    s.setChartBackgroundColor(Color.WHITE).setPlotBackgroundColor(Color.WHITE).setLegendBorderColor(Color.LIGHT_GRAY)
        .setPlotBorderColor(FRAME).setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14))
        .setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12)).setChartTitleBoxVisible(false).setAntiAlias(false);
  }

  /** The chart as an image of its own size. */
  static BufferedImage image(Chart<?, ?> chart) {
    return BitmapEncoder.getBufferedImage(chart);
  }

  /** Writes {@code chart} to {@code file} as a PNG (the name is kept as given). */
  static void writePng(Chart<?, ?> chart, Path file) throws IOException {
    ImageIO.write(image(chart), "png", file.toFile());
  }
}

package io.expresso.report;

import io.expresso.stats.MeanStd;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Success rate versus budget (Campi et al., Fig. 5): one panel per perturbation space, blue the
 * non-robust rate, orange the transfer rate, each mean ± standard error over seeds (error bars),
 * drawn with Java2D into a PNG.
 */
final class SuccessPlot {

  /** One panel: x = budget fractions, rates in [0, 1]. */
  record Panel(String title, double[] fractions, MeanStd[] success, MeanStd[] transfer) {}

  private static final int PANEL_W = 360;
  private static final int H = 300;
  private static final Color BLUE = new Color(31, 119, 180);
  private static final Color ORANGE = new Color(255, 127, 14);

  private SuccessPlot() {}

  static void write(Path file, String title, List<Panel> panels) throws IOException {
    int w = PANEL_W * Math.max(1, panels.size());
    BufferedImage img = new BufferedImage(w, H + 30, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, H + 30);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString(title, 10, 18);
    for (int i = 0; i < panels.size(); i++) {
      drawPanel(g, panels.get(i), i * PANEL_W, 30);
    }
    g.dispose();
    ImageIO.write(img, "png", file.toFile());
  }

  private static void drawPanel(Graphics2D g, Panel p, int x0, int y0) {
    int left = x0 + 45;
    int right = x0 + PANEL_W - 15;
    int top = y0 + 25;
    int bottom = y0 + H - 45;
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setColor(Color.BLACK);
    g.drawString(p.title(), left, y0 + 15);
    g.drawRect(left, top, right - left, bottom - top);
    double xmax = p.fractions()[p.fractions().length - 1];
    for (int t = 0; t <= 4; t++) {
      int y = (int) Math.round(bottom - t / 4.0 * (bottom - top));
      g.setColor(new Color(230, 230, 230));
      g.drawLine(left + 1, y, right - 1, y);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.2f", t / 4.0), x0 + 8, y + 4);
    }
    for (double f : p.fractions()) {
      int x = xOf(f, xmax, left, right);
      g.drawLine(x, bottom, x, bottom + 4);
      g.drawString(String.format(Locale.ROOT, "%.0f%%", f * 100), x - 10, bottom + 17);
    }
    g.drawString("budget (% of mean edges)", left + 60, bottom + 33);
    series(g, p.fractions(), p.success(), xmax, left, right, top, bottom, BLUE);
    series(g, p.fractions(), p.transfer(), xmax, left, right, top, bottom, ORANGE);
    g.setColor(BLUE);
    g.drawString("non-robust", right - 135, bottom - 25); // bottom right: curves rarely go there
    g.setColor(ORANGE);
    g.drawString("non-robust (transfer)", right - 135, bottom - 10);
  }

  private static void series(Graphics2D g, double[] xs, MeanStd[] ys, double xmax, int left, int right,
      int top, int bottom, Color c) {
    g.setColor(c);
    g.setStroke(new BasicStroke(2f));
    int px = -1;
    int py = -1;
    for (int i = 0; i < xs.length; i++) {
      if (ys == null || i >= ys.length || Double.isNaN(ys[i].mean())) {
        px = -1;
        continue;
      }
      int x = xOf(xs[i], xmax, left, right);
      int y = yOf(ys[i].mean(), top, bottom);
      if (px >= 0) {
        g.drawLine(px, py, x, y);
      }
      g.fillOval(x - 3, y - 3, 7, 7);
      int lo = yOf(Math.max(0, ys[i].mean() - ys[i].se()), top, bottom);
      int hi = yOf(Math.min(1, ys[i].mean() + ys[i].se()), top, bottom);
      g.drawLine(x, lo, x, hi);
      g.drawLine(x - 4, lo, x + 4, lo);
      g.drawLine(x - 4, hi, x + 4, hi);
      px = x;
      py = y;
    }
    g.setStroke(new BasicStroke(1f));
  }

  private static int xOf(double f, double xmax, int left, int right) {
    return (int) Math.round(left + 10 + f / xmax * (right - left - 20));
  }

  private static int yOf(double v, int top, int bottom) {
    return (int) Math.round(bottom - v * (bottom - top));
  }
}

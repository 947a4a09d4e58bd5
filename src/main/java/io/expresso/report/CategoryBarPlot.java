package io.expresso.report;

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
 * Accuracy per category per model as grouped bars, drawn with Java2D into a PNG (as the robustness
 * study's plots are): one group per category, in each group one solid bar per model and, where the
 * paper has a number, a pale bar of the same colour beside it. Bars are filled without
 * anti-aliasing, so each model's colour is exact in the image.
 */
public final class CategoryBarPlot {

  /**
   * One model.
   *
   * @param ours accuracy in [0, 1] per group, NaN where the model has no pairs in it
   * @param paper the paper's accuracy per group, NaN where it has none
   */
  public record Series(String label, double[] ours, double[] paper) {}

  /** Model colours, in turn (matplotlib's tab10). */
  public static final List<Color> PALETTE = List.of(new Color(31, 119, 180), new Color(255, 127, 14),
      new Color(44, 160, 44), new Color(214, 39, 40), new Color(148, 103, 189), new Color(140, 86, 75),
      new Color(227, 119, 194), new Color(127, 127, 127), new Color(188, 189, 34), new Color(23, 190, 207));

  /** The plot area: rows TOP .. TOP + PLOT_H - 1, the axis at TOP + PLOT_H (tests read bars from the pixels). */
  public static final int PLOT_H = 300;
  public static final int TOP = 40;
  static final int LEFT = 50;
  static final int BAR_W = 12;
  static final int GROUP_GAP = 24;
  /** Wide enough for a category name such as "Distance Regular" under its bars. */
  static final int MIN_GROUP_W = 110;

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

  /** Writes the plot; {@code groups} names the categories, each series has one value per group. */
  public static void write(Path file, String title, List<String> groups, List<Series> series) throws IOException {
    int slots = 2 * Math.max(1, series.size());
    int groupW = Math.max(MIN_GROUP_W, slots * BAR_W + GROUP_GAP);
    int legendH = 18 * (series.size() + 1);
    int w = Math.max(620, LEFT + groups.size() * groupW + 20);
    int h = TOP + PLOT_H + 70 + legendH;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString(title, 10, 20);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    int bottom = TOP + PLOT_H;
    for (int t = 0; t <= 4; t++) {
      int y = bottom - t * PLOT_H / 4;
      g.setColor(new Color(225, 225, 225));
      g.drawLine(LEFT, y, w - 10, y);
      g.setColor(Color.BLACK);
      g.drawString(t * 25 + "%", 8, y + 4);
    }
    for (int gi = 0; gi < groups.size(); gi++) {
      int x0 = LEFT + gi * groupW + (groupW - slots * BAR_W) / 2;
      for (int si = 0; si < series.size(); si++) {
        Series s = series.get(si);
        bar(g, x0 + 2 * si * BAR_W, bottom, value(s.ours(), gi), colour(si));
        bar(g, x0 + (2 * si + 1) * BAR_W, bottom, value(s.paper(), gi), paleColour(si));
      }
      g.setColor(Color.BLACK);
      drawCentred(g, groups.get(gi), x0 + slots * BAR_W / 2, bottom + 15, groupW);
    }
    g.setColor(Color.BLACK);
    g.drawLine(LEFT, bottom, w - 10, bottom);
    g.drawString("accuracy: pairs reliably distinguished by the best seed (solid); BREC paper, Table 2 (pale)",
        LEFT, bottom + 40);
    int ly = bottom + 60;
    for (int si = 0; si < series.size(); si++, ly += 18) {
      g.setColor(colour(si));
      g.fillRect(LEFT, ly - 10, 10, 10);
      g.setColor(paleColour(si));
      g.fillRect(LEFT + 12, ly - 10, 10, 10);
      g.setColor(Color.BLACK);
      g.drawString(series.get(si).label(), LEFT + 28, ly);
    }
    g.dispose();
    ImageIO.write(img, "png", file.toFile());
  }

  private static double value(double[] v, int i) {
    return v == null || i >= v.length ? Double.NaN : v[i];
  }

  /** A bar from the axis up to {@code v} of the plot's height; none for NaN, a 1-pixel stub for 0. */
  private static void bar(Graphics2D g, int x, int bottom, double v, Color c) {
    if (Double.isNaN(v)) {
      return;
    }
    int hgt = Math.max(1, (int) Math.round(Math.min(1, Math.max(0, v)) * PLOT_H));
    g.setColor(c);
    g.fillRect(x + 1, bottom - hgt, BAR_W - 2, hgt);
  }

  private static void drawCentred(Graphics2D g, String text, int cx, int y, int maxW) {
    String t = text;
    for (int keep = text.length(); keep > 3 && g.getFontMetrics().stringWidth(t) > maxW - 4; keep--) {
      t = text.substring(0, keep - 1) + "…";
    }
    g.drawString(t, cx - g.getFontMetrics().stringWidth(t) / 2, y);
  }

  /** Formats an accuracy for alt texts: "62.5%". */
  public static String percent(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }
}

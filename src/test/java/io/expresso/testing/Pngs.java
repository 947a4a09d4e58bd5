package io.expresso.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/** Test helper: what a written plot holds, read back from its pixels. */
public final class Pngs {

  /** A bar: columns {@code left..right}, rows {@code top..bottom} of one colour. */
  public record Bar(int left, int right, int top, int bottom) {
    public int height() {
      return bottom - top + 1;
    }
  }

  /** The plot border's colour in the report's plots. */
  public static final Color FRAME = Color.GRAY;

  private Pngs() {}

  /** The image at {@code file}, checked to be a PNG that decodes. */
  public static BufferedImage read(Path file) throws IOException {
    assertThat(Files.readAllBytes(file)).as(file + " is a PNG").startsWith(0x89, 'P', 'N', 'G');
    BufferedImage img = ImageIO.read(file.toFile());
    assertThat(img).as(file + " decodes").isNotNull();
    return img;
  }

  /** Pixels of exactly {@code c} in columns {@code x0} (inclusive) to {@code x1} (exclusive). */
  public static int pixels(BufferedImage img, Color c, int x0, int x1) {
    int n = 0;
    for (int x = Math.max(0, x0); x < Math.min(x1, img.getWidth()); x++) {
      for (int y = 0; y < img.getHeight(); y++) {
        n += img.getRGB(x, y) == c.getRGB() ? 1 : 0;
      }
    }
    return n;
  }

  /** The mean row of the pixels of exactly {@code c} in columns {@code x0..x1-1}; NaN if none. */
  public static double meanRow(BufferedImage img, Color c, int x0, int x1) {
    long sum = 0;
    int n = 0;
    for (int x = Math.max(0, x0); x < Math.min(x1, img.getWidth()); x++) {
      for (int y = 0; y < img.getHeight(); y++) {
        if (img.getRGB(x, y) == c.getRGB()) {
          sum += y;
          n++;
        }
      }
    }
    return n == 0 ? Double.NaN : (double) sum / n;
  }

  /** Distinct colours in the image (a blank image has one). */
  public static int colours(BufferedImage img) {
    return (int) java.util.stream.IntStream.range(0, img.getWidth() * img.getHeight())
        .map(i -> img.getRGB(i % img.getWidth(), i / img.getWidth())).distinct().count();
  }

  /**
   * The bars of colour {@code c} inside the plot's frame, left to right: runs of columns holding the
   * colour, each measured in its middle column. The frame is the report plots' grey plot border
   * (its lowest row with grey across a third of the image); a legend below it is left out.
   */
  public static List<Bar> bars(BufferedImage img, Color c) {
    int frameBottom = frameBottom(img);
    List<Bar> runs = new ArrayList<>();
    int start = -1;
    for (int x = 0; x <= img.getWidth(); x++) {
      boolean has = x < img.getWidth() && column(img, c, x, frameBottom)[0] >= 0;
      if (has && start < 0) {
        start = x;
      } else if (!has && start >= 0) {
        int[] tb = column(img, c, (start + x - 1) / 2, frameBottom);
        runs.add(new Bar(start, x - 1, tb[0], tb[1]));
        start = -1;
      }
    }
    return runs;
  }

  /** The lowest row with the plot frame's grey across a third of the image. */
  static int frameBottom(BufferedImage img) {
    for (int y = img.getHeight() - 1; y >= 0; y--) {
      int n = 0;
      for (int x = 0; x < img.getWidth(); x++) {
        n += img.getRGB(x, y) == FRAME.getRGB() ? 1 : 0;
      }
      if (n >= img.getWidth() / 3) {
        return y;
      }
    }
    throw new AssertionError("no plot frame in the image");
  }

  /** {top, bottom} rows of colour {@code c} in column {@code x} above row {@code below}, {-1, -1} if none. */
  private static int[] column(BufferedImage img, Color c, int x, int below) {
    int top = -1;
    int bottom = -1;
    for (int y = 0; y < below; y++) {
      if (img.getRGB(x, y) == c.getRGB()) {
        top = top < 0 ? y : top;
        bottom = y;
      }
    }
    return new int[] {top, bottom};
  }
}

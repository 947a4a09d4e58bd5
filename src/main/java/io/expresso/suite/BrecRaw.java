package io.expresso.suite;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BREC's seven raw category files ({@code customize/Data/raw/} in BREC), the pairs from which its
 * dataset files are built. Their NumPy layouts differ: 1-D arrays whose consecutive entries form a
 * pair, or (k, 2) arrays with one pair per row; {@code |S} or {@code <U} strings. Each file must
 * hold exactly the pairs BREC's full file takes from it, so a truncated or foreign file is caught
 * before anything is built.
 */
public final class BrecRaw {

  /**
   * One raw pair.
   *
   * @param file the raw file's name
   * @param row the pair's position in that file, from 0
   */
  public record RawPair(String file, int row, Graph first, Graph second) {}

  private BrecRaw() {}

  /**
   * The pairs {@code variant} keeps, in its order, read from {@code dir}.
   *
   * @throws GraphFormatException naming the directory or the file (and entry) when a needed file is
   *     missing, not a NumPy array of graph6 strings in one of the two layouts, holds a different
   *     number of pairs than BREC's, or an entry is not graph6
   */
  public static List<RawPair> pairs(Path dir, BrecVariant variant) {
    if (!Files.isDirectory(dir)) {
      throw new GraphFormatException(dir + ": no such directory (expected BREC's raw category files "
          + String.join(", ", BrecVariant.RAW_FILES) + ")");
    }
    Map<String, List<RawPair>> byFile = new LinkedHashMap<>();
    List<RawPair> out = new ArrayList<>(variant.pairs());
    for (BrecVariant.Part part : variant.parts()) {
      List<RawPair> all = byFile.computeIfAbsent(part.rawFile(), f -> readFile(dir.resolve(f)));
      out.addAll(all.subList(0, part.pairs()));
    }
    return out;
  }

  /** Every pair of one raw file, checked against the count BREC's full file takes from it. */
  static List<RawPair> readFile(Path file) {
    String name = file.getFileName().toString();
    if (!Files.isRegularFile(file)) {
      throw new GraphFormatException(file + ": BREC raw category file not found (a raw directory holds "
          + String.join(", ", BrecVariant.RAW_FILES) + ")");
    }
    List<String> strings;
    try {
      strings = NpyStringArray.readPairs(file);
    } catch (IOException e) {
      throw new GraphFormatException(file + ": cannot read: " + e.getMessage(), e);
    }
    if (strings.size() % 2 != 0) {
      throw new GraphFormatException(name + ": " + strings.size()
          + " entries, an odd number; consecutive entries must form pairs");
    }
    int expected = expectedPairs(name);
    if (strings.size() / 2 != expected) {
      throw new GraphFormatException(name + ": " + strings.size() / 2 + " pairs; BREC's raw file holds "
          + expected + " (is this BREC's " + name + "?)");
    }
    List<RawPair> out = new ArrayList<>(expected);
    for (int p = 0; p < expected; p++) {
      out.add(new RawPair(name, p, decode(strings.get(2 * p), name + " pair " + p + " (G)"),
          decode(strings.get(2 * p + 1), name + " pair " + p + " (H)")));
    }
    return out;
  }

  /** The pairs the full file takes from {@code rawFile}: all of them. */
  private static int expectedPairs(String rawFile) {
    return BrecVariant.FULL.parts().stream().filter(p -> p.rawFile().equals(rawFile))
        .mapToInt(BrecVariant.Part::pairs).sum();
  }

  private static Graph decode(String graph6, String where) {
    try {
      return Graph6.decode(graph6);
    } catch (GraphFormatException e) {
      throw e.at(where);
    }
  }
}

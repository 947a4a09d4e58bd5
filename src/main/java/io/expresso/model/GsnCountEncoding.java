package io.expresso.model;

import io.expresso.count.EdgeOrbitCounts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * GSN's one-hot encoding of the edge-orbit counts, as BREC's GSN script builds it: its
 * {@code one_hot_unique} encoder replaces a column's count by its rank among the values that column
 * takes over the whole dataset the script loads, and its {@code one_hot_encoder} widens each rank to
 * a one-hot block (273 columns over the 12 count columns). A pair task never sees a whole dataset, so
 * the values are those of BREC's own GSN dataset ({@code brec_v3_s4}: Basic, Regular, Extension),
 * read from {@code gsn-brec-count-values.txt}.
 *
 * <p>One column per count column more than BREC: a count the dataset never holds (only the pairs
 * BREC's GSN script never runs carry such counts: CFI, 4-vertex condition, distance regular) sets
 * its column's overflow slot, so it stays distinct from every count BREC's encoder knows. On BREC's
 * 260 pairs the overflow slots are always 0.
 */
final class GsnCountEncoding {

  private static final String RESOURCE = "gsn-brec-count-values.txt";

  /** Per count column, the sorted values BREC's dataset holds. */
  private static final long[][] VALUES = read();

  private static final int[] OFFSETS = offsets();

  private GsnCountEncoding() {}

  /** Input columns: every known value's slot plus one overflow slot per count column. */
  static int width() {
    return OFFSETS[VALUES.length];
  }

  /** The slots BREC's encoder has (273): {@link #width()} less the overflow slots. */
  static int brecWidth() {
    return width() - VALUES.length;
  }

  /** The slot of count {@code value} in count column {@code column}. */
  static int slot(int column, long value) {
    int rank = Arrays.binarySearch(VALUES[column], value);
    return OFFSETS[column] + (rank >= 0 ? rank : VALUES[column].length);
  }

  /** True when BREC's dataset holds {@code value} in count column {@code column}. */
  static boolean known(int column, long value) {
    return Arrays.binarySearch(VALUES[column], value) >= 0;
  }

  private static int[] offsets() {
    int[] o = new int[VALUES.length + 1];
    for (int c = 0; c < VALUES.length; c++) {
      o[c + 1] = o[c] + VALUES[c].length + 1;
    }
    return o;
  }

  private static long[][] read() {
    List<EdgeOrbitCounts.Orbit> columns = EdgeOrbitCounts.columns();
    List<long[]> rows = new ArrayList<>();
    try (InputStream in = GsnCountEncoding.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int colon = line.lastIndexOf(':');
        String name = line.substring(0, colon).trim();
        String expected = columns.get(rows.size()).name();
        if (!name.equals(expected)) {
          throw new IllegalStateException(RESOURCE + ": column " + rows.size() + " is '" + name + "', expected '"
              + expected + "'");
        }
        rows.add(Arrays.stream(line.substring(colon + 1).split(",")).map(String::trim).mapToLong(Long::parseLong)
            .sorted().toArray());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (rows.size() != columns.size()) {
      throw new IllegalStateException(RESOURCE + " has " + rows.size() + " columns, expected " + columns.size());
    }
    return rows.toArray(long[][]::new);
  }
}

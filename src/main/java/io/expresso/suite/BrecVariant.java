package io.expresso.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One of BREC's dataset files: which pairs of the raw category files it keeps, in which order, and
 * the category ranges of its own pair indices. BREC builds each with one script in {@code
 * customize/}; the three here are the ones its model folders load:
 *
 * <ul>
 *   <li>{@code full} — {@code brec_v3.npy} ({@code dataset_v3.py}): all 400 pairs;
 *   <li>{@code 3wl} — {@code brec_v3_3wl.npy} ({@code dataset_v3_3wl.py}): Basic 0–60, Regular
 *       60–110 (simple regular only), Extension 110–210, CFI 210–270 (the first 60 CFI pairs): the
 *       270 pairs 3-WL distinguishes, for models bounded by 3-WL;
 *   <li>{@code no4v-60cfi} — {@code brec_v3_no4v_60cfi.npy} ({@code dataset_v3_no4v_60cfi.py}):
 *       Basic, Regular (simple and strongly regular), Extension as in the full file, CFI 260–320 (the
 *       first 60), Distance Regular 320–340; no 4-vertex-condition pairs.
 * </ul>
 *
 * <p>Pair indices are the variant's own (as BREC's {@code part_dict} gives them), not the full file's.
 *
 * @param name the variant's name in specs and on the command line
 * @param brecFile the file name BREC gives it
 * @param parts the raw pairs it keeps, in file order
 */
public record BrecVariant(String name, String brecFile, List<Part> parts) {

  /** The raw category files, in the order BREC reads them. */
  public static final List<String> RAW_FILES =
      List.of("basic.npy", "regular.npy", "str.npy", "extension.npy", "cfi.npy", "4vtx.npy", "dr.npy");

  public static final BrecVariant FULL = new BrecVariant("full", "brec_v3.npy", List.of(
      new Part("Basic", "basic.npy", 60),
      new Part("Regular", "regular.npy", 50),
      new Part("Regular", "str.npy", 50),
      new Part("Extension", "extension.npy", 100),
      new Part("CFI", "cfi.npy", 100),
      new Part("4-Vertex Condition", "4vtx.npy", 20),
      new Part("Distance Regular", "dr.npy", 20)));

  public static final BrecVariant THREE_WL = new BrecVariant("3wl", "brec_v3_3wl.npy", List.of(
      new Part("Basic", "basic.npy", 60),
      new Part("Regular", "regular.npy", 50),
      new Part("Extension", "extension.npy", 100),
      new Part("CFI", "cfi.npy", 60)));

  public static final BrecVariant NO4V_60CFI = new BrecVariant("no4v-60cfi", "brec_v3_no4v_60cfi.npy", List.of(
      new Part("Basic", "basic.npy", 60),
      new Part("Regular", "regular.npy", 50),
      new Part("Regular", "str.npy", 50),
      new Part("Extension", "extension.npy", 100),
      new Part("CFI", "cfi.npy", 60),
      new Part("Distance Regular", "dr.npy", 20)));

  public static final List<BrecVariant> ALL = List.of(FULL, THREE_WL, NO4V_60CFI);

  /** The variant names, for help texts and error messages. */
  public static final String NAMES = "full, 3wl, no4v-60cfi";

  /**
   * The first {@code pairs} pairs of one raw category file.
   *
   * @param category the category they fall in
   * @param rawFile the raw file's name, one of {@link #RAW_FILES}
   * @param pairs how many pairs, from the file's first
   */
  public record Part(String category, String rawFile, int pairs) {}

  /** One category: pair indices {@code [from, to)}. */
  public record Range(String name, int from, int to) {}

  public BrecVariant {
    parts = List.copyOf(parts);
  }

  /** The variant called {@code name} ({@code _} and {@code -} alike, as in BREC's file names). */
  public static BrecVariant byName(String name) {
    String key = name.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    for (BrecVariant v : ALL) {
      if (v.name.equals(key)) {
        return v;
      }
    }
    throw new IllegalArgumentException("unknown BREC variant '" + name + "'; valid: " + NAMES);
  }

  /** The variant with exactly {@code pairs} pairs, if any (their counts differ: 400, 270, 340). */
  public static Optional<BrecVariant> byPairCount(int pairs) {
    return ALL.stream().filter(v -> v.pairs() == pairs).findFirst();
  }

  /** The number of pairs. */
  public int pairs() {
    return parts.stream().mapToInt(Part::pairs).sum();
  }

  /** The categories and their index ranges, in file order; consecutive parts of one category merge. */
  public List<Range> ranges() {
    List<Range> out = new ArrayList<>();
    int from = 0;
    for (Part p : parts) {
      Range last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last.name().equals(p.category())) {
        out.set(out.size() - 1, new Range(last.name(), last.from(), last.to() + p.pairs()));
      } else {
        out.add(new Range(p.category(), from, from + p.pairs()));
      }
      from += p.pairs();
    }
    return out;
  }

  /** The category of pair {@code index}. */
  public String categoryOf(int index) {
    for (Range r : ranges()) {
      if (index >= r.from() && index < r.to()) {
        return r.name();
      }
    }
    throw new IllegalArgumentException("pair index " + index + " is outside the range 0.." + (pairs() - 1)
        + " of BREC variant " + name);
  }
}

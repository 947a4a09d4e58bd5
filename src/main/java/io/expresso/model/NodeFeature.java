package io.expresso.model;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import java.util.Locale;

/**
 * One column of the node features Expresso computes for a TorchScript module's sparse input
 * ({@code features=degree+count-triangle}): the constant 1 (BREC's unlabelled graphs), the degree,
 * or the exact number of induced copies of a pattern that contain the node ({@code count/}).
 * Every column is invariant under relabeling, so the siamese test stays meaningful.
 *
 * @param name the spec's name for the column
 * @param pattern the counted pattern of a {@code count-…} column, else null
 */
public record NodeFeature(String name, Pattern pattern) {

  public static final NodeFeature ONES = new NodeFeature("ones", null);
  public static final NodeFeature DEGREE = new NodeFeature("degree", null);

  /** The feature names a spec accepts. */
  public static String forms() {
    return "ones, degree, count-P (P one of " + Pattern.validNames() + ")";
  }

  /**
   * @throws IllegalArgumentException naming the unknown feature and the valid forms
   */
  public static NodeFeature parse(String text) {
    String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    if (s.equals(ONES.name)) {
      return ONES;
    }
    if (s.equals(DEGREE.name)) {
      return DEGREE;
    }
    if (s.startsWith("count-")) {
      return new NodeFeature(s, Pattern.fromName(s.substring("count-".length())));
    }
    throw new IllegalArgumentException("unknown node feature '" + text + "'; expected " + forms());
  }

  /** The column for every vertex of {@code g}. */
  public float[] values(Graph g) {
    float[] out = new float[g.n()];
    if (pattern != null) {
      long[] c = InducedCounts.perNode(g, pattern);
      for (int v = 0; v < out.length; v++) {
        out[v] = c[v];
      }
      return out;
    }
    for (int v = 0; v < out.length; v++) {
      out[v] = name.equals(ONES.name) ? 1f : g.degree(v);
    }
    return out;
  }
}

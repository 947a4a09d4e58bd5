package io.expresso.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A count-regression architecture and its sizes, parsed from text (CLI options, task fields,
 * checkpoint headers) — never a class name: {@code i2gnn[:hidden=32,layers=3,hops=2]}, or any
 * {@link ModelSpec} text ({@code ppgn:layers=3,hidden=32}, {@code gin}, {@code ngnn-de}) whose
 * embedding network gets a final MLP.
 *
 * @param architecture {@code i2gnn} or a {@link ModelSpec} architecture name
 * @param text the canonical text, which {@link #parse} maps back to this spec
 */
public record RegressorSpec(String architecture, String text) {

  /**
   * {@code readout-norm=none|batch} (GIN, PPGN, NGNN): {@code batch} puts a graph-level batch norm
   * between the embedding and the final MLP — the layer Expresso's PPGN regressor once had and Campi
   * et al.'s has not; kept to measure what it costs (docs/results/robustness-readout-bn.md).
   */
  private static final String READOUT_BATCH_NORM = ",readout-norm=batch";

  /**
   * Splits a list of specs (a regex, usable as a picocli {@code split}): on {@code ;}, and on
   * {@code ,} unless the next item is a {@code key=value} of the spec before it, so
   * {@code ppgn:layers=3,hidden=16,i2gnn} is two specs and {@code i2gnn,ppgn} still two.
   */
  public static final String LIST_SPLIT = ";|,(?![^,;:]*=)";

  /** {@link #LIST_SPLIT} applied to {@code text}; blank items are dropped. */
  public static java.util.List<String> splitList(String text) {
    return java.util.Arrays.stream(text.split(LIST_SPLIT)).map(String::trim).filter(t -> !t.isEmpty()).toList();
  }

  /** Parses a spec, naming the bad part on error. */
  public static RegressorSpec parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    int colon = t.indexOf(':');
    String arch = colon < 0 ? t : t.substring(0, colon);
    if (!arch.equals("i2gnn")) {
      // readout-norm is the regressor's own key (a norm between body and head), not the body's
      String readoutNorm = "none";
      if (colon >= 0) {
        List<String> bodyKeys = new ArrayList<>();
        for (String kv : t.substring(colon + 1).split(",")) {
          if (kv.trim().startsWith("readout-norm=")) {
            readoutNorm = kv.trim().substring("readout-norm=".length());
          } else {
            bodyKeys.add(kv);
          }
        }
        if (!readoutNorm.equals("none") && !readoutNorm.equals("batch")) {
          throw new IllegalArgumentException("model spec '" + text + "': readout-norm must be none or batch, got '"
              + readoutNorm + "'");
        }
        t = arch + (bodyKeys.isEmpty() ? "" : ":" + String.join(",", bodyKeys));
      }
      ModelSpec spec;
      try {
        spec = ModelSpec.parse(t);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown count-regression model '" + text
            + "' (known: i2gnn, " + Architecture.names() + "): " + e.getMessage(), e);
      }
      return new RegressorSpec(spec.architecture().cliName(),
          spec.toText() + (readoutNorm.equals("batch") ? READOUT_BATCH_NORM : ""));
    }
    Map<String, Integer> v = new LinkedHashMap<>(Map.of("hidden", 32, "layers", 3, "hops", 2));
    if (colon >= 0 && colon < t.length() - 1) {
      for (String kv : t.substring(colon + 1).split(",")) {
        String[] p = kv.split("=", 2);
        if (p.length != 2 || !v.containsKey(p[0].trim())) {
          throw new IllegalArgumentException("model spec '" + text + "': expected key=value with key in "
              + v.keySet() + ", got '" + kv + "'");
        }
        try {
          v.put(p[0].trim(), Integer.parseInt(p[1].trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("model spec '" + text + "': " + p[0] + " is not an integer: '" + p[1] + "'");
        }
      }
    }
    if (v.get("hidden") < 1 || v.get("layers") < 1 || v.get("hops") < 1) {
      throw new IllegalArgumentException("model spec '" + text + "': hidden, layers and hops must be >= 1");
    }
    return new RegressorSpec("i2gnn", "i2gnn:hidden=" + v.get("hidden") + ",layers=" + v.get("layers")
        + ",hops=" + v.get("hops"));
  }

  /** This spec with width and depth at most the given values (0: that size uncapped). */
  public RegressorSpec withSizes(int maxHidden, int maxLayers) {
    String t = text;
    t = cap(t, "hidden", maxHidden);
    t = cap(t, "layers", maxLayers);
    return parse(t);
  }

  private static String cap(String text, String key, int max) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("([:,]" + key + "=)(\\d+)").matcher(text);
    if (max <= 0 || !m.find()) {
      return text;
    }
    int v = Math.min(Integer.parseInt(m.group(2)), max);
    return text.substring(0, m.start(2)) + v + text.substring(m.end(2));
  }

  /** A fresh, uninitialised network of this spec. */
  public GraphRegressor create() {
    if (architecture.equals("i2gnn")) {
      RegressorSpec s = this;
      Map<String, Integer> v = new LinkedHashMap<>();
      for (String kv : s.text.substring(s.text.indexOf(':') + 1).split(",")) {
        String[] p = kv.split("=", 2);
        v.put(p[0], Integer.parseInt(p[1]));
      }
      return new I2Gnn(v.get("hidden"), v.get("layers"), v.get("hops"));
    }
    boolean batchNorm = text.endsWith(READOUT_BATCH_NORM);
    String body = batchNorm ? text.substring(0, text.length() - READOUT_BATCH_NORM.length()) : text;
    return new BodyRegressor(ModelSpec.parse(body), batchNorm);
  }

  @Override
  public String toString() {
    return text;
  }
}

package io.expresso.model;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A count-regression architecture and its sizes, parsed from text such as {@code i2gnn} or
 * {@code i2gnn:hidden=32,layers=3,hops=2} (CLI options, task fields, checkpoint headers) — never a
 * class name.
 */
public record RegressorSpec(String architecture, int hidden, int layers, int hops) {

  public RegressorSpec {
    if (!architecture.equals("i2gnn")) {
      throw new IllegalArgumentException("unknown count-regression model '" + architecture
          + "' (known: i2gnn)");
    }
  }

  /** Parses {@code arch[:key=value,...]}; keys hidden, layers, hops. */
  public static RegressorSpec parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    int colon = t.indexOf(':');
    String arch = colon < 0 ? t : t.substring(0, colon);
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
    return new RegressorSpec(arch, v.get("hidden"), v.get("layers"), v.get("hops"));
  }

  /** A fresh, uninitialised network of this spec. */
  public GraphRegressor create() {
    return new I2Gnn(hidden, layers, hops);
  }

  @Override
  public String toString() {
    return architecture + ":hidden=" + hidden + ",layers=" + layers + ",hops=" + hops;
  }
}

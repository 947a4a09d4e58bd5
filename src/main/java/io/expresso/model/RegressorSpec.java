package io.expresso.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A count-regression architecture and its sizes, parsed from text (CLI options, task fields,
 * checkpoint headers) — never a class name. Campi et al.'s three count models have their own keys:
 * {@code i2gnn[:hidden=32,layers=3,hops=2,conv=gated|gin,labels=hop]} ({@link I2Gnn}),
 * {@code ppgn[:in=1,hidden=128,d=64,layers=4,depth=2,act=relu|tanh]} ({@link PpgnCounter}) and
 * {@code gin[:in=1,hidden=128,out=64,layers=4,act=elu,pool=add,aggr=add,concat=true,bn=false]}
 * ({@link GinCounter}); any other {@link ModelSpec} text ({@code ngnn-de}, …) is that embedding
 * network with a final MLP ({@link BodyRegressor}).
 *
 * @param architecture {@code i2gnn}, {@code ppgn} or a {@link ModelSpec} architecture name
 * @param text the canonical text, which {@link #parse} maps back to this spec
 */
public record RegressorSpec(String architecture, String text) {

  /**
   * {@code readout-norm=none|batch} (the {@link BodyRegressor} bodies, NGNN…): {@code batch} puts a graph-level batch norm
   * between the embedding and the final MLP — the layer Expresso's PPGN regressor once had and Campi
   * et al.'s has not; kept to measure what it costs (docs/results/robustness-readout-bn.md).
   */
  private static final String READOUT_BATCH_NORM = ",readout-norm=batch";

  /** The authors' GIN as their {@code tests/model.json} records it (batch_norm left at its default, off). */
  private static final String GIN_DEFAULTS = "in=1,hidden=128,out=64,layers=4,act=elu,pool=add,aggr=add,concat=true,bn=false";

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
    if (!arch.equals("i2gnn") && !arch.equals("ppgn") && !arch.equals("gin")) {
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
      if (spec.architecture() == Architecture.OSAN) {
        throw new IllegalArgumentException("model spec '" + text + "': osan is not a count-regression body (its"
            + " I-MLE scorer trains under siamese and dataset training only)");
      }
      return new RegressorSpec(spec.architecture().cliName(),
          spec.toText() + (readoutNorm.equals("batch") ? READOUT_BATCH_NORM : ""));
    }
    return switch (arch) {
      case "ppgn" -> parsePpgn(text, t, colon);
      case "gin" -> parseGin(text, t, colon);
      default -> parseI2Gnn(text, t, colon);
    };
  }

  /** {@code key=value} pairs after the colon, every key one of {@code defaults}' (values kept as text). */
  private static Map<String, String> keyValues(String text, String t, int colon, Map<String, String> defaults) {
    Map<String, String> v = new LinkedHashMap<>(defaults);
    if (colon >= 0 && colon < t.length() - 1) {
      for (String kv : t.substring(colon + 1).split(",")) {
        String[] p = kv.split("=", 2);
        if (p.length != 2 || !v.containsKey(p[0].trim())) {
          throw new IllegalArgumentException("model spec '" + text + "': expected key=value with key in "
              + v.keySet() + ", got '" + kv + "'");
        }
        v.put(p[0].trim(), p[1].trim());
      }
    }
    return v;
  }

  private static int positive(String text, Map<String, String> v, String key, int min) {
    int x;
    try {
      x = Integer.parseInt(v.get(key));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("model spec '" + text + "': " + key + " is not an integer: '" + v.get(key) + "'");
    }
    if (x < min) {
      throw new IllegalArgumentException("model spec '" + text + "': " + key + " must be >= " + min + ", got " + x);
    }
    return x;
  }

  private static String oneOf(String text, Map<String, String> v, String key, String... allowed) {
    String x = v.get(key);
    if (!List.of(allowed).contains(x)) {
      throw new IllegalArgumentException("model spec '" + text + "': " + key + " must be one of "
          + String.join(", ", allowed) + ", got '" + x + "'");
    }
    return x;
  }

  /**
   * I²-GNN ({@link I2GnnNetwork}): {@code hidden}, {@code layers}, {@code hops}, {@code conv=gated|gin},
   * {@code labels=hop}; the canonical text names conv and labels only where they differ from the
   * authors' (gated, hop).
   */
  private static RegressorSpec parseI2Gnn(String text, String t, int colon) {
    Map<String, String> v = keyValues(text, t, colon, Map.of("hidden", "32", "layers", "3", "hops", "2",
        "conv", "gated", "labels", "hop"));
    int hidden = positive(text, v, "hidden", 1);
    int layers = positive(text, v, "layers", 1);
    int hops = positive(text, v, "hops", 1);
    String conv = oneOf(text, v, "conv", "gated", "gin");
    String labels = oneOf(text, v, "labels", "hop");
    return new RegressorSpec("i2gnn", "i2gnn:hidden=" + hidden + ",layers=" + layers + ",hops=" + hops
        + (conv.equals("gated") ? "" : ",conv=" + conv) + (labels.equals("hop") ? "" : ",labels=" + labels));
  }

  /**
   * PPGN ({@link PpgnCounter}, the authors' sizes by default: in 1, hidden 128, d 64, 4 layers,
   * MLP depth 2, ReLU): {@code in}, {@code hidden}, {@code d} (their out_channels), {@code layers},
   * {@code depth}, {@code act=relu|tanh}.
   */
  private static RegressorSpec parsePpgn(String text, String t, int colon) {
    Map<String, String> v = keyValues(text, t, colon, Map.of("in", "1", "hidden", "128", "d", "64", "layers", "4",
        "depth", "2", "act", "relu"));
    int in = positive(text, v, "in", 1);
    int hidden = positive(text, v, "hidden", 1);
    int d = positive(text, v, "d", 1);
    int layers = positive(text, v, "layers", 2);
    int depth = positive(text, v, "depth", 1);
    String act = oneOf(text, v, "act", "relu", "tanh");
    return new RegressorSpec("ppgn", "ppgn:in=" + in + ",hidden=" + hidden + ",d=" + d + ",layers=" + layers
        + ",depth=" + depth + (act.equals("relu") ? "" : ",act=" + act));
  }

  /**
   * GIN ({@link GinCounter}, the authors' {@code tests/model.json} by default: in 1, hidden 128, out 64,
   * 4 layers, ELU, add pooling, add aggregation, concatenated layers, no batch norm): {@code in},
   * {@code hidden}, {@code out}, {@code layers}, {@code act=relu|tanh|elu|softmax},
   * {@code pool=add|mean|max}, {@code aggr=add|mean}, {@code concat=true|false}, {@code bn=true|false};
   * the canonical text names the options only where they differ from those defaults.
   */
  private static RegressorSpec parseGin(String text, String t, int colon) {
    Map<String, String> defaults = new LinkedHashMap<>();
    for (String kv : GIN_DEFAULTS.split(",")) {
      String[] p = kv.split("=", 2);
      defaults.put(p[0], p[1]);
    }
    Map<String, String> v = keyValues(text, t, colon, defaults);
    int in = positive(text, v, "in", 1);
    int hidden = positive(text, v, "hidden", 1);
    int out = positive(text, v, "out", 1);
    int layers = positive(text, v, "layers", 2);
    StringBuilder canonical = new StringBuilder("gin:in=" + in + ",hidden=" + hidden + ",out=" + out + ",layers=" + layers);
    String[][] options = {{"act", "relu", "tanh", "elu", "softmax"}, {"pool", "add", "mean", "max"},
        {"aggr", "add", "mean"}, {"concat", "true", "false"}, {"bn", "true", "false"}};
    for (String[] o : options) {
      String x = oneOf(text, v, o[0], java.util.Arrays.copyOfRange(o, 1, o.length));
      if (!x.equals(defaults.get(o[0]))) {
        canonical.append(',').append(o[0]).append('=').append(x);
      }
    }
    return new RegressorSpec("gin", canonical.toString());
  }

  /** This spec with width and depth at most the given values (0: that size uncapped). */
  public RegressorSpec withSizes(int maxHidden, int maxLayers) {
    String t = text;
    t = cap(t, "hidden", maxHidden);
    t = cap(t, "layers", maxLayers);
    if (architecture.equals("ppgn")) {
      t = cap(t, "d", maxHidden);
    }
    if (architecture.equals("gin")) {
      t = cap(t, "out", maxHidden);
    }
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
    if (architecture.equals("i2gnn") || architecture.equals("ppgn") || architecture.equals("gin")) {
      Map<String, String> v = new LinkedHashMap<>();
      if (architecture.equals("gin")) {
        for (String kv : GIN_DEFAULTS.split(",")) {
          String[] p = kv.split("=", 2);
          v.put(p[0], p[1]);
        }
      }
      for (String kv : text.substring(text.indexOf(':') + 1).split(",")) {
        String[] p = kv.split("=", 2);
        v.put(p[0], p[1]);
      }
      if (architecture.equals("gin")) {
        return new GinCounter(new GinCounter.Options(Integer.parseInt(v.get("in")), Integer.parseInt(v.get("hidden")),
            Integer.parseInt(v.get("out")), Integer.parseInt(v.get("layers")),
            GinCounter.Act.valueOf(v.get("act").toUpperCase(Locale.ROOT)),
            GinCounter.Pool.valueOf(v.get("pool").toUpperCase(Locale.ROOT)),
            GinCounter.Aggr.valueOf(v.get("aggr").toUpperCase(Locale.ROOT)),
            Boolean.parseBoolean(v.get("concat")), Boolean.parseBoolean(v.get("bn"))));
      }
      if (architecture.equals("ppgn")) {
        return new PpgnCounter(new PpgnCounter.Options(Integer.parseInt(v.get("in")), Integer.parseInt(v.get("hidden")),
            Integer.parseInt(v.get("d")), Integer.parseInt(v.get("layers")), Integer.parseInt(v.get("depth")),
            "tanh".equals(v.get("act"))));
      }
      return new I2Gnn(new I2GnnNetwork.Options(Integer.parseInt(v.get("hidden")), Integer.parseInt(v.get("layers")),
          Integer.parseInt(v.get("hops")),
          "gin".equals(v.get("conv")) ? I2GnnNetwork.Conv.GIN : I2GnnNetwork.Conv.GATED, I2GnnNetwork.Labels.HOP));
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

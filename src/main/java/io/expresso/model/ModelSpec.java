package io.expresso.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A model configuration: which architecture and its size. Parsed from text such as {@code ppgn}
 * or {@code ppgn:layers=5,hidden=32,d=16} (CLI, tasks); never from a class name.
 *
 * @param architecture the network family
 * @param layers message-passing layers (GIN, inner GIN of NGNN) or PPGN blocks
 * @param hidden hidden width
 * @param embedding output dimension d (16 in BREC's RPC)
 * @param radius subgraph radius for NGNN-DE, DS-GNN, DSS-GNN and I²-GNN; SSWL_P's distance cap max_dis
 *     (ignored otherwise)
 * @param bnMomentum batch-norm running-statistics momentum in DJL's convention (weight of the old
 *     value; PyTorch's default 0.1 is DJL's 0.9, BREC's PPGN uses PyTorch's 1.0, DJL's 0: evaluation
 *     mode normalises with the last training batch's statistics)
 * @param pe Laplacian positional encodings: the k smallest non-trivial eigenvectors of the
 *     normalised Laplacian as extra node features ({@link LaplacianPe}); 0 for none
 * @param budget a parameter budget the hidden width is chosen for ({@link ParameterBudget}); 0 for
 *     none. The width is resolved before the model is built; the spec keeps the budget it was sized to
 * @param residual GIN only: the benchmarking-gnns reference GIN's residual form — a linear embedding
 *     of the node features to the hidden width, then every layer adds its input to its output, the
 *     embedding's sum-pooled read-out joins the layers', and linear layers start as PyTorch's (BREC's
 *     GIN has none of it)
 * @param learnEps GIN only: GIN-ε, each layer weighs the vertex's own state by a learned
 *     {@code 1 + ε} (ε starts at 0), as both reference GINs of benchmarking-gnns; false is GIN-0
 * @param nodeLabels GIN only: K one-hot input columns for the vertices' labels (a vertex whose label
 *     index is i has a 1 in column i, beside the constant 1 and the encodings), as the GIN and
 *     benchmarking papers feed TU node labels; 0 for none. A dataset task sets it to the dataset's
 *     number of distinct node labels ({@link GraphBatch} carries the indices)
 */
public record ModelSpec(
    Architecture architecture, int layers, int hidden, int embedding, int radius, float bnMomentum, int pe,
    long budget, boolean residual, boolean learnEps, int nodeLabels) implements NetworkSpec {

  /** A spec without node-label inputs. */
  public ModelSpec(Architecture architecture, int layers, int hidden, int embedding, int radius, float bnMomentum,
      int pe, long budget, boolean residual, boolean learnEps) {
    this(architecture, layers, hidden, embedding, radius, bnMomentum, pe, budget, residual, learnEps, 0);
  }

  /** A spec without residual connections or learned ε. */
  public ModelSpec(Architecture architecture, int layers, int hidden, int embedding, int radius, float bnMomentum,
      int pe, long budget) {
    this(architecture, layers, hidden, embedding, radius, bnMomentum, pe, budget, false, false);
  }

  /** A spec without positional encodings or parameter budget. */
  public ModelSpec(Architecture architecture, int layers, int hidden, int embedding, int radius, float bnMomentum) {
    this(architecture, layers, hidden, embedding, radius, bnMomentum, 0, 0);
  }

  /** Every key {@link #parse} knows, in the order of the text form; which of them an architecture takes: {@link Architecture#keys}. */
  public static final List<String> KEYS = List.of("layers", "hidden", "d", "radius", "bn-momentum", "pe", "budget", "residual", "learn-eps",
      "node-labels");

  /** The keys every architecture takes unless it refuses them; the others only those that say they take them. */
  public static final List<String> SHARED_KEYS = List.of("layers", "hidden", "d", "radius", "bn-momentum", "pe", "budget");

  public ModelSpec {
    if (architecture == null) {
      throw new IllegalArgumentException("model spec needs an architecture");
    }
    check("layers", layers, 1, 64);
    check("hidden", hidden, 1, 4096);
    check("d", embedding, 1, 4096);
    check("radius", radius, 1, 64);
    check("pe", pe, 0, 256);
    if (architecture == Architecture.GNN_AK) {
      check("radius", radius, 1, GnnAkBlock.MAX_RADIUS); // the authors' hop embedding has 20 rows
    }
    check("node-labels", nodeLabels, 0, 4096);
    // a key the architecture does not take may hold only its neutral value
    refuseUnlessTaken(architecture, "pe", pe > 0);
    refuseUnlessTaken(architecture, "residual", residual);
    refuseUnlessTaken(architecture, "learn-eps", learnEps);
    refuseUnlessTaken(architecture, "node-labels", nodeLabels > 0);
    // unused (no subgraphs, no batch norms): held at one value so that the text form, which omits them, parses back equal
    if (!architecture.takes("radius")) {
      radius = 1;
    }
    if (!architecture.takes("bn-momentum")) {
      bnMomentum = 0.9f;
    }
    if (architecture == Architecture.GRAPHORMER && hidden % GraphormerBlock.HEADS != 0) {
      throw new IllegalArgumentException("model spec: hidden must be a multiple of graphormer's "
          + GraphormerBlock.HEADS + " heads, got " + hidden);
    }
    if (architecture == Architecture.KC_SET_GNN && hidden % 2 != 0) {
      throw new IllegalArgumentException("model spec: hidden must be even for kc-setgnn (its bipartite layers map to hidden / 2), got "
          + hidden);
    }
    if (budget < 0 || budget > 1_000_000_000L) {
      throw new IllegalArgumentException("model spec: budget must lie in [0, 1e9] parameters, got " + budget);
    }
    if (!(bnMomentum >= 0f && bnMomentum < 1f)) {
      throw new IllegalArgumentException("model spec: bn-momentum must lie in [0, 1), got " + bnMomentum);
    }
  }

  /** Refuses {@code key} set on an architecture that does not take it, saying why. */
  private static void refuseUnlessTaken(Architecture a, String key, boolean set) {
    Optional<String> refusal = a.refusal(key);
    if (set && refusal.isPresent()) {
      throw new IllegalArgumentException("model spec: " + refusal.get());
    }
  }

  private static void check(String key, int v, int min, int max) {
    if (v < min || v > max) {
      throw new IllegalArgumentException(
          "model spec: " + key + " must lie in [" + min + ", " + max + "], got " + v);
    }
  }

  /**
   * BREC's defaults: PPGN 5 blocks of width 32 (BREC appendix O); GIN 4 layers of width 32; the
   * others as each model's BREC search script runs it.
   */
  public static ModelSpec defaults(Architecture a) {
    return switch (a) {
      case GIN -> new ModelSpec(a, 4, 32, 16, 1, 0.9f);
      case PPGN -> new ModelSpec(a, 5, 32, 16, 1, 0f); // BREC's norms keep the last batch's statistics
      // NestedGNN/test_BREC_search_ngnnde.py: h 8, 6 layers × 128; its bn2 keeps the last batch's statistics
      case NGNN_DE -> new ModelSpec(a, 6, 128, 16, 8, 0f);
      // NestedGNN/test_BREC_search_ngnn.py: h 1, 6 layers × 16, --node_label=no; bn2 as NGNN_DE's
      case NGNN -> new ModelSpec(a, 6, 16, 16, 1, 0f);
      // BREC's appendix O and scripts: GSN 4 layers × 64; DS-GNN 10 × 32, DSS-GNN 9 × 32, ego-nets of radius 6
      case GSN -> new ModelSpec(a, 4, 64, 16, 1, 0.9f);
      case DS_GNN -> new ModelSpec(a, 10, 32, 16, 6, 0.9f);
      case DSS_GNN -> new ModelSpec(a, 9, 32, 16, 6, 0.9f);
      // SUN/test_BREC_search_sun.py: --num_hops=6 --num_layer=9 --emb_dim=32
      case SUN -> new ModelSpec(a, 9, 32, 16, 6, 0.9f);
      // SWL/test_BREC_search.py: --max_dis=8 (radius: the distance cap) --num_layer=8 --dim_embed=64
      case SSWL_P -> new ModelSpec(a, 8, 64, 16, 8, 0.9f);
      // K = 8 hops, 8 layers × 32; its norms keep the last batch's statistics (PyTorch momentum 1.0)
      case KP_GNN -> new ModelSpec(a, 8, 32, 16, 8, 0f);
      // I2GNN/test_BREC_search.py: h 8 hops, 5 layers, width 32
      case I2GNN -> new ModelSpec(a, 5, 32, 16, 8, 0.9f);
      // GNNAsKernel/train/configs/BREC.yaml: num_layers 4, hidden_size 32, subgraph hops 6 (mini-layers 2: GnnAkBlock)
      case GNN_AK -> new ModelSpec(a, 4, 32, 16, 6, 0.9f);
      // DropGNN/test_BREC_search.py: --num_layers 10 --hidden_units 16 --OUTPUT_DIM=16 (BatchNorm1d's default momentum)
      case DROP_GNN -> new ModelSpec(a, 10, 16, 16, 1, 0.9f);
      // Graphormer/graphormer/test_BREC_search.py: --n_layers 12 --hidden_dim 80 (radius and bn-momentum unused)
      case GRAPHORMER -> new ModelSpec(a, 12, 80, 16, 1, 0.9f);
      // SparseWL/neural_higher_order/BREC/test_BREC.py: NetGIN(--dim 16), six layers; radius unused
      case DELTA_K_LGNN -> new ModelSpec(a, 6, 16, 16, 1, 0.9f);
      // KCSetGNN/train/configs/BREC.yaml: num_layers 4 (bipartite), hidden_size 64; norms keep the last batch's statistics (no radius)
      case KC_SET_GNN -> new ModelSpec(a, 4, 64, 16, 1, 0f);
      // OSAN/configs/brec/common_configs.yaml: ogb_originalgin, num_convlayers 8, hid_size 64; OUTPUT_DIM 16; radius unused
      case OSAN -> new ModelSpec(a, 8, 64, 16, 1, 0.9f);
    };
  }

  /**
   * Parses {@code name[:key=value,...]} with keys {@code layers, hidden, d, radius, bn-momentum, pe,
   * budget, residual, learn-eps, node-labels} (a budget may end in k or m: {@code budget=100k}).
   *
   * @throws IllegalArgumentException naming the bad part
   */
  public static ModelSpec parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("empty model spec");
    }
    int colon = text.indexOf(':');
    Architecture a = Architecture.byName(colon < 0 ? text : text.substring(0, colon));
    ModelSpec s = defaults(a);
    if (colon < 0) {
      return s;
    }
    int layers = s.layers, hidden = s.hidden, d = s.embedding, radius = s.radius;
    float bn = s.bnMomentum;
    int pe = s.pe;
    long budget = s.budget;
    boolean residual = s.residual;
    boolean learnEps = s.learnEps;
    int nodeLabels = s.nodeLabels;
    for (String kv : text.substring(colon + 1).split(",")) {
      if (kv.isBlank()) {
        continue;
      }
      int eq = kv.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("model spec '" + text + "': expected key=value, got '" + kv + "'");
      }
      String key = kv.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = kv.substring(eq + 1).trim();
      Optional<String> refusal = a.refusal(key);
      if (refusal.isPresent()) {
        throw new IllegalArgumentException("model spec '" + text + "': " + refusal.get());
      }
      try {
        switch (key) {
          case "layers" -> layers = Integer.parseInt(value);
          case "hidden" -> hidden = Integer.parseInt(value);
          case "d", "embedding" -> d = Integer.parseInt(value);
          case "radius" -> radius = Integer.parseInt(value);
          case "bn-momentum" -> bn = Float.parseFloat(value);
          case "pe" -> pe = Integer.parseInt(value);
          case "budget" -> budget = budget(value);
          case "residual" -> residual = bool(text, key, value);
          case "learn-eps" -> learnEps = bool(text, key, value);
          case "node-labels" -> nodeLabels = Integer.parseInt(value);
          default -> throw new IllegalArgumentException("model spec '" + text + "': unknown key '" + key
              + "' (" + a.cliName() + " takes: " + String.join(", ", a.keys()) + ")");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("model spec '" + text + "': " + key + " is not a number: '" + value + "'");
      }
    }
    return new ModelSpec(a, layers, hidden, d, radius, bn, pe, budget, residual, learnEps, nodeLabels);
  }

  private static boolean bool(String text, String key, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes" -> true;
      case "false", "0", "no" -> false;
      default -> throw new IllegalArgumentException("model spec '" + text + "': " + key + " must be true or false, got '"
          + value + "'");
    };
  }

  /** A parameter count such as {@code 100000}, {@code 100k} or {@code 0.5m}. */
  private static long budget(String value) {
    String v = value.toLowerCase(Locale.ROOT);
    double scale = v.endsWith("k") ? 1e3 : v.endsWith("m") ? 1e6 : 1;
    double n = Double.parseDouble(scale == 1 ? v : v.substring(0, v.length() - 1));
    return Math.round(n * scale);
  }

  /** This spec with another hidden width (budget sizing). */
  public ModelSpec withHidden(int h) {
    return new ModelSpec(architecture, layers, h, embedding, radius, bnMomentum, pe, budget, residual, learnEps, nodeLabels);
  }

  /** This spec without a parameter budget (its width as it stands). */
  public ModelSpec withBudgetRemoved() {
    return new ModelSpec(architecture, layers, hidden, embedding, radius, bnMomentum, pe, 0, residual, learnEps, nodeLabels);
  }

  /** This spec with another output dimension (a classifier's d is its number of classes). */
  public ModelSpec withEmbedding(int d) {
    return new ModelSpec(architecture, layers, hidden, d, radius, bnMomentum, pe, budget, residual, learnEps, nodeLabels);
  }

  /** This spec with a parameter budget to be sized to (0: none). */
  public ModelSpec withBudget(long b) {
    return new ModelSpec(architecture, layers, hidden, embedding, radius, bnMomentum, pe, b, residual, learnEps, nodeLabels);
  }

  /** This spec with {@code k} one-hot node-label input columns (0: none). */
  public ModelSpec withNodeLabels(int k) {
    return new ModelSpec(architecture, layers, hidden, embedding, radius, bnMomentum, pe, budget, residual, learnEps, k);
  }

  @Override
  public String family() {
    return architecture.cliName();
  }

  /** The canonical text form; {@code parse(toText())} gives this spec back. */
  @Override
  public String toText() {
    return architecture.cliName() + ":layers=" + layers + ",hidden=" + hidden + ",d=" + embedding
        + (architecture.takes("radius") ? ",radius=" + radius : "")
        + (architecture.takes("bn-momentum") ? ",bn-momentum=" + bnMomentum : "")
        // only when set, so the text of every spec without them (results files, checkpoints) is unchanged
        + (pe > 0 ? ",pe=" + pe : "") + (budget > 0 ? ",budget=" + budget : "") + (residual ? ",residual=true" : "")
        + (learnEps ? ",learn-eps=true" : "") + (nodeLabels > 0 ? ",node-labels=" + nodeLabels : "");
  }

  /** The spec as a flat map, for result records. */
  public Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("architecture", architecture.cliName());
    m.put("layers", layers);
    m.put("hidden", hidden);
    m.put("d", embedding);
    m.put("radius", radius);
    m.put("bn_momentum", bnMomentum);
    if (pe > 0) {
      m.put("pe", pe);
    }
    if (budget > 0) {
      m.put("budget", budget);
    }
    if (residual) {
      m.put("residual", true);
    }
    if (learnEps) {
      m.put("learn_eps", true);
    }
    if (nodeLabels > 0) {
      m.put("node_labels", nodeLabels);
    }
    return m;
  }
}

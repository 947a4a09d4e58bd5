package io.expresso.model;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The GNN architectures Expresso can train, by their command-line names, the spec keys each takes
 * ({@link #keys}) and the one place each becomes its network ({@link #block}). Adding a model: its
 * line here (with the shared keys it refuses and why), its case in {@link #block},
 * its defaults ({@link ModelSpec#defaults}, {@code train.TrainingSettings#defaults}), its block and
 * its test; every switch over the architectures is exhaustive, so the compiler lists what is left.
 */
public enum Architecture {
  /** Graph isomorphism network (sum aggregation, MLPs with batch norm): bounded by 1-WL. */
  GIN("gin", false, alsoTakes("residual"), alsoTakes("learn-eps"), alsoTakes("node-labels")),
  /** Provably powerful graph network (Maron et al. 2019): dense n×n tensors, as strong as 3-WL. */
  PPGN("ppgn", true),
  /** Nested GNN with distance encoding: an inner GIN on every rooted k-hop subgraph. */
  NGNN_DE("ngnn-de", true),
  /** Nested GNN without node labels: a GIN on every rooted 1-hop subgraph, vertices unmarked (BREC's NGNN). */
  NGNN("ngnn", true),
  /** GSN-e: messages see exact induced counts of every connected 3- and 4-vertex graph per edge orbit. */
  GSN("gsn", false),
  /** DS-GNN (ESAN): a GIN on every root-marked ego-net subgraph, DeepSets over the subgraphs. */
  DS_GNN("ds-gnn", true),
  /** DSS-GNN (ESAN): as DS-GNN, every layer also mixing each vertex's copies across subgraphs. */
  DSS_GNN("dss-gnn", true),
  /** SUN: every root-marked ego-net, each vertex updated from its root, its own copies and its subgraph. */
  SUN("sun", true),
  /** SSWL_P: every vertex pair (u, v), updated from u's subgraph at v's neighbours, the subgraphs of u's neighbours at v, and (v, v). */
  SSWL_P("sswl-p", true, refuses("pe", "BREC's sswl-p labels its subgraph nodes by their distances only")),
  /** KP-GNN (KP-GIN): per hop k up to K, the vertices at distance k and their peripheral subgraph. */
  KP_GNN("kp-gnn", true),
  /** I²-GNN: per root and neighbour, the k-hop subgraph labelled by distances to both (BREC's setting of the count regressor's network). */
  I2GNN("i2gnn", true, refuses("pe", "BREC's i2gnn labels its subgraph nodes by their distances only")),
  /** GNN-AK+: an inner GINE on every vertex's k-hop ego-net; centroid, subgraph and context encodings per layer. */
  GNN_AK("gnn-ak", true, refuses("pe", "BREC's GNN-AK reads the constant vertex feature only")),
  /** DropGNN: a GIN over 100 copies of the graph, in each a vertex dropped at random with p = 2/(1 + n) (BREC's). */
  DROP_GNN("dropgnn", false, refuses("pe", "BREC's DropGNN reads the constant 1, dropped at random")),
  /** Graphormer: a transformer over the vertices and a graph token, attention biased by shortest-path distances. */
  GRAPHORMER("graphormer", true, refuses("pe", "its vertices see their degrees, its attention their distances"),
      refuses("radius", "no subgraphs, no batch norms"), refuses("bn-momentum", "no subgraphs, no batch norms")),
  /** δ-2-LGNN (Morris et al.): GINs over each ordered vertex pair's local neighbours in either position, Set2Set read-out. */
  DELTA_K_LGNN("delta-k-lgnn", true, refuses("pe", "BREC's δ-k-LGNN reads its vertex pairs' atomic types only")),
  /** KC-SetGNN: every vertex set of at most k = 3 vertices with at most c = 2 components, a GINE inside the connected ones, messages between sets and their supersets. */
  KC_SET_GNN("kc-setgnn", true, refuses("pe", "BREC's KC-SetGNN reads the constant 1 only"),
      refuses("radius", "its set size k 3 and components c 2 are BREC's script's")),
  /** OSAN: a GIN over 20 edge-deleted subgraphs and the graph, the deleted edges picked by a GCN scorer trained by I-MLE. */
  OSAN("osan", false, refuses("pe", "BREC's OSAN reads the constant 1 only"),
      refuses("radius", "its subgraphs delete one edge each"));

  /**
   * What a network is built for. Only PPGN differs between the two: pair embeddings follow BREC's
   * PPGN, count regressors' bodies the PPGN of Campi et al. ({@link PpgnBlock.Variant}).
   */
  public enum Role {
    /** A {@link GraphModel}'s embedding of width d (BREC's siamese protocol, dataset tasks). */
    PAIR_EMBEDDING,
    /** The body of a count regressor ({@link RegressorSpec}), under its final MLP. */
    COUNT_REGRESSION
  }

  /**
   * How an architecture's keys differ from {@link ModelSpec#SHARED_KEYS}: one more it takes, or a
   * shared one it refuses, with the reason its one-line refusal gives.
   */
  private record KeyRule(String key, boolean taken, String why) {}

  private static KeyRule alsoTakes(String key) {
    return new KeyRule(key, true, "");
  }

  private static KeyRule refuses(String key, String why) {
    return new KeyRule(key, false, why);
  }

  private final String cliName;
  private final boolean dense;
  private final List<KeyRule> keyRules;

  Architecture(String cliName, boolean dense, KeyRule... keyRules) {
    this.cliName = cliName;
    this.dense = dense;
    this.keyRules = List.of(keyRules);
  }

  public String cliName() {
    return cliName;
  }

  /**
   * True when the network's memory grows faster than its graph's: dense n×n tensors per graph or
   * a subgraph per vertex (a pair task's graphs then meet the worker's {@code model-vertices} limit).
   */
  public boolean dense() {
    return dense;
  }

  /** The spec keys this architecture takes, in the order of the text form ({@link ModelSpec#KEYS}). */
  public List<String> keys() {
    return ModelSpec.KEYS.stream().filter(this::takes).toList();
  }

  /** Whether a spec of this architecture may set {@code key}. */
  public boolean takes(String key) {
    return keyRules.stream().filter(r -> r.key.equals(key)).map(KeyRule::taken).findFirst()
        .orElse(ModelSpec.SHARED_KEYS.contains(key));
  }

  /**
   * Why a spec of this architecture may not set {@code key}, in words for a one-line error (e.g.
   * "pe is not an i2gnn option (...)", "residual is a gin option, not ppgn"); empty when it may, or
   * when no architecture knows the key.
   */
  public Optional<String> refusal(String key) {
    if (takes(key)) {
      return Optional.empty();
    }
    Optional<KeyRule> refused = keyRules.stream().filter(r -> r.key.equals(key)).findFirst();
    if (refused.isPresent()) {
      return Optional.of(key + " is not " + (readWithAn() ? "an " : "a ") + cliName + " option (" + refused.get().why + ")");
    }
    String takers = Arrays.stream(values()).filter(a -> a.takes(key)).map(Architecture::cliName)
        .collect(Collectors.joining("/"));
    return takers.isEmpty() ? Optional.empty() : Optional.of(key + " is a " + takers + " option, not " + cliName);
  }

  /** "an i2gnn", "an sswl-p", "a sun": a vowel, or an initialism read from a letter named with one (ef, el, em, en, es...). */
  private boolean readWithAn() {
    return "aeiou".indexOf(cliName.charAt(0)) >= 0 || cliName.matches("[fhlmnrsx][^aeiou].*");
  }

  /** The network of {@code spec} (an architecture of this kind) for {@code role}, uninitialised. */
  GraphBlock block(ModelSpec spec, Role role) {
    if (spec.architecture() != this) {
      throw new IllegalArgumentException(spec.toText() + " is not a " + cliName + " spec");
    }
    return switch (this) {
      case GIN -> new GinBlock(spec);
      case PPGN -> new PpgnBlock(spec, role == Role.COUNT_REGRESSION ? PpgnBlock.Variant.COUNTING : PpgnBlock.Variant.BREC);
      case NGNN_DE -> new NgnnDeBlock(spec, NgnnDeBlock.Labels.DISTANCE);
      case NGNN -> new NgnnDeBlock(spec, NgnnDeBlock.Labels.NONE);
      case GSN -> new GsnBlock(spec);
      case DS_GNN -> new EgoSubgraphBlock(spec, EgoSubgraphBlock.Variant.DS);
      case DSS_GNN -> new EgoSubgraphBlock(spec, EgoSubgraphBlock.Variant.DSS);
      case SUN -> new SunBlock(spec);
      case SSWL_P -> new SswlBlock(spec);
      case KP_GNN -> new KpGnnBlock(spec);
      case I2GNN -> new I2GnnBlock(spec);
      case GNN_AK -> new GnnAkBlock(spec);
      case DROP_GNN -> new DropGnnBlock(spec);
      case GRAPHORMER -> new GraphormerBlock(spec);
      case DELTA_K_LGNN -> new DeltaLgnnBlock(spec);
      case KC_SET_GNN -> new KcSetGnnBlock(spec);
      case OSAN -> new OsanBlock(spec);
    };
  }

  /** The command-line names of every architecture, comma-separated (for messages that list them). */
  public static String names() {
    return Arrays.stream(values()).map(Architecture::cliName).collect(Collectors.joining(", "));
  }

  /** The architecture with this command-line name (case-insensitive). */
  public static Architecture byName(String name) {
    for (Architecture a : values()) {
      if (a.cliName.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown model '" + name + "'; expected one of " + names());
  }
}

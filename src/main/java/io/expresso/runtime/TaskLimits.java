package io.expresso.runtime;

import com.google.protobuf.Message;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphFormatException;
import io.expresso.model.Architecture;
import io.expresso.proto.v1.AttackJob;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.TrainTask;
import io.expresso.proto.v1.TrainingSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The work one task may ask for, checked before any of it is done: a task over a limit ends as an
 * error result ({@code over-limit}) naming the limit and the value, never as an out-of-memory.
 * The defaults fit a 24 GB machine with room for several devices; a worker overrides them with
 * {@code --limits FILE} (properties, the keys of {@link #DEFAULTS}) or {@code --limit key=value,...}.
 *
 * <p>Which limit a method meets follows how its memory grows: {@code vertices} and {@code edges}
 * for every graph (the graph itself is n² bits); {@code dense-vertices} for methods with n×n
 * tables or n runs of refinement (3-wl, spd-wl, s3, s4, n1, n2, m1); {@code cubic-vertices} for
 * 4-wl (n³ tuples); {@code model-vertices} for GNNs that hold dense n×n×width tensors per
 * relabeling (ppgn) or a subgraph per vertex (ngnn-de, ds-gnn, ...: {@link Architecture#dense}).
 */
public record TaskLimits(Map<String, Long> values) {

  public static final TaskLimits DEFAULTS = new TaskLimits(defaults());

  private static final Set<String> DENSE_METHODS = Set.of("3-wl", "spd-wl", "s3", "s4", "n1", "n2", "m1");
  private static final Set<String> CUBIC_METHODS = Set.of("4-wl");
  /** Model spec keys that set a width, and those that set a depth. */
  private static final Set<String> WIDTH_KEYS = Set.of("hidden", "width", "d");
  private static final Set<String> DEPTH_KEYS = Set.of("layers", "depth", "hops", "radius");

  private static Map<String, Long> defaults() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("vertices", 10_000L);       // the graph's adjacency bitsets: 12.5 MB
    m.put("edges", 1_000_000L);
    m.put("dense-vertices", 2_000L);  // two n×n int tables (spd-wl): 32 MB
    m.put("cubic-vertices", 300L);    // 4-wl: 2.7e7 tuples
    m.put("model-vertices", 256L);    // ppgn: 2q=64 relabelings × n² × width 32 floats ≈ 0.5 GB a layer
    m.put("epochs", 2_000L);
    m.put("q", 256L);
    m.put("batch-size", 1_024L);
    m.put("hidden", 1_024L);
    m.put("layers", 32L);
    m.put("width-x-depth", 8_192L);
    m.put("parameters", 10_000_000L); // a model spec's budget=N: sizing builds models up to this size
    m.put("spec-chars", 1_024L);      // a model spec or method name
    m.put("beam-width", 1_000L);
    return java.util.Collections.unmodifiableMap(m);
  }

  public TaskLimits {
    Map<String, Long> all = new LinkedHashMap<>(DEFAULTS == null ? values : DEFAULTS.values());
    for (Map.Entry<String, Long> e : values.entrySet()) {
      if (DEFAULTS != null && !DEFAULTS.values().containsKey(e.getKey())) {
        throw new IllegalArgumentException("unknown limit '" + e.getKey() + "'; limits: "
            + String.join(", ", DEFAULTS.values().keySet()));
      }
      if (e.getValue() < 1) {
        throw new IllegalArgumentException("limit " + e.getKey() + " must be at least 1, got " + e.getValue());
      }
      all.put(e.getKey(), e.getValue());
    }
    values = java.util.Collections.unmodifiableMap(all); // in the documented order, for messages
  }

  public long of(String key) {
    Long v = values.get(key);
    if (v == null) {
      throw new IllegalArgumentException("unknown limit '" + key + "'");
    }
    return v;
  }

  /** These limits with {@code key=value,...} applied over them. */
  public TaskLimits with(String overrides) {
    Map<String, Long> m = new LinkedHashMap<>(values);
    if (overrides == null || overrides.isBlank()) {
      return this;
    }
    for (String part : overrides.split(",")) {
      String[] kv = part.trim().split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("limit '" + part + "' is not key=value (e.g. vertices=5000)");
      }
      m.put(kv[0].trim(), number(kv[0].trim(), kv[1].trim()));
    }
    return new TaskLimits(m);
  }

  /** The defaults with a properties file's keys applied over them. */
  public static TaskLimits read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    }
    Map<String, Long> m = new LinkedHashMap<>(DEFAULTS.values());
    for (String k : p.stringPropertyNames()) {
      try {
        m.put(k, number(k, p.getProperty(k).trim()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
      }
    }
    return new TaskLimits(m);
  }

  private static long number(String key, String text) {
    try {
      return Long.parseLong(text.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("limit " + key + " = '" + text + "' is not a whole number");
    }
  }

  /** Refuses {@code task} if it asks for more than a limit allows; reads graph headers only. */
  void check(TaskKind kind, Message task) {
    switch (kind) {
      case PAIR -> checkPair((PairTask) task);
      case TRAIN -> spec("job.spec", ((TrainTask) task).getJob().getSpec());
      case ATTACK -> {
        AttackJob job = ((AttackTask) task).getJob();
        spec("job.spec", job.getSpec());
        at("beam-width", job.getBeam(), "job.beam");
      }
      case SYNTHETIC -> { } // its only cost, work_ms, is bounded by the task timeout
      case DATASET -> {
        io.expresso.proto.v1.DatasetTask d = (io.expresso.proto.v1.DatasetTask) task;
        spec("model", d.getModel());
        at("epochs", d.getMaxEpochs(), "max_epochs");
      }
    }
  }

  private static boolean denseModel(String name) {
    return Arrays.stream(Architecture.values()).anyMatch(a -> a.dense() && a.cliName().equals(name));
  }

  private void checkPair(PairTask t) {
    String method = t.getMethod().toLowerCase(Locale.ROOT);
    spec("method", method);
    String name = method.contains(":") ? method.substring(0, method.indexOf(':')) : method;
    String vertexLimit = CUBIC_METHODS.contains(name) ? "cubic-vertices"
        : DENSE_METHODS.contains(name) ? "dense-vertices"
        : denseModel(name) || (name.equals("torchscript") && method.contains("input=dense"))
            ? "model-vertices" : "vertices";
    graph(t.getGraphFirst(), "graph_first", vertexLimit);
    graph(t.getGraphSecond(), "graph_second", vertexLimit);
    if (t.hasRelabelings()) {
      io.expresso.proto.v1.Relabelings r = t.getRelabelings();
      at("q", Math.max(Math.max(r.getFirstCount(), r.getSecondCount()),
          Math.max(r.getReliabilityFirstCount(), r.getReliabilitySecondCount())), "relabelings per graph");
      for (List<String> list : List.of(r.getFirstList(), r.getSecondList(), r.getReliabilityFirstList(),
          r.getReliabilitySecondList())) {
        for (String g : list) {
          graph(g, "a relabeling", vertexLimit);
        }
      }
    }
    at("q", t.getRpc().getQ(), "rpc.q");
    training(t.getTraining());
  }

  private void training(TrainingSettings s) {
    at("epochs", s.getEpochs(), "training.epochs");
    at("batch-size", s.getBatchSize(), "training.batch_size");
  }

  /** Checks a model spec's length and every width and depth it names ({@code name:hidden=64,layers=5}). */
  private void spec(String what, String spec) {
    at("spec-chars", spec.length(), what + " (characters)");
    int colon = spec.indexOf(':');
    if (colon < 0) {
      return;
    }
    long width = 1;
    long depth = 1;
    for (String part : spec.substring(colon + 1).split(",")) {
      String[] kv = part.split("=", 2);
      if (kv.length != 2) {
        continue; // the evaluator names a malformed part
      }
      String key = kv[0].trim().toLowerCase(Locale.ROOT);
      long v;
      try {
        v = Long.parseLong(kv[1].trim());
      } catch (NumberFormatException e) {
        continue;
      }
      if (key.equals("budget")) {
        String b = kv[1].trim().toLowerCase(Locale.ROOT);
        try {
          double scale = b.endsWith("k") ? 1e3 : b.endsWith("m") ? 1e6 : 1;
          at("parameters", Math.round(Double.parseDouble(scale == 1 ? b : b.substring(0, b.length() - 1)) * scale),
              what + " budget");
        } catch (NumberFormatException e) {
          // the evaluator names a malformed budget
        }
        continue;
      }
      if (WIDTH_KEYS.contains(key)) {
        at("hidden", v, what + " " + key);
        width = Math.max(width, v);
      } else if (DEPTH_KEYS.contains(key)) {
        at("layers", v, what + " " + key);
        depth = Math.max(depth, v);
      }
    }
    at("width-x-depth", width * depth, what + " width × depth");
  }

  private void graph(String text, String field, String vertexLimit) {
    long n;
    try {
      n = Graph6.declaredVertices(text);
    } catch (GraphFormatException e) {
      return; // malformed: decoding reports it with its own reason
    }
    at(vertexLimit, n, field + " vertices");
    at("edges", Graph6.edgeBound(text), field + " edges");
  }

  private void at(String limit, long value, String what) {
    long max = of(limit);
    if (value > max) {
      throw new TaskFailure(TaskFailure.OVER_LIMIT, what + " is " + value + ", over the worker's limit " + limit
          + " = " + max + " (worker --limit " + limit + "=N or --limits FILE)");
    }
  }
}

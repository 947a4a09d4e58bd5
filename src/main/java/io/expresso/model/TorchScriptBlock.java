package io.expresso.model;

import io.expresso.engine.EngineSeeds;
import ai.djl.engine.EngineException;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Parameter;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.engine.PtSymbolBlock;
import ai.djl.pytorch.jni.IValueUtils;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.ParameterStore;
import ai.djl.util.Pair;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A user's TorchScript module (loaded through DJL's PyTorch engine as a {@link PtSymbolBlock}) behind
 * the {@link GraphBlock} interface, so that siamese training, micro-batches and judgement treat it
 * like a built-in model. Encodes a batch in the signature its spec names (sparse or dense) and
 * checks, on a probe batch when loaded, that the module takes it and returns a finite float32
 * B×d table.
 */
final class TorchScriptBlock extends GraphBlock {

  /** Activation tensors per layer of an n×n dense model, as PPGN's estimate counts them. */
  private static final long DENSE_TENSORS_PER_LAYER = 8;

  private final TorchScriptSpec spec;
  private final PtSymbolBlock module;
  private final boolean reset;
  private String initialisation;
  private int width = -1;

  private TorchScriptBlock(TorchScriptSpec spec, PtSymbolBlock module, boolean reset) {
    this.spec = spec;
    this.module = module;
    this.reset = reset;
    this.initialisation = reset ? "the module's reset_parameters() under the seed" : "the saved weights";
    addChildBlock("module", module);
  }

  /**
   * Loads the module on {@code manager}'s device, draws its initial weights (its
   * {@code reset_parameters()} under {@code seed}, or the saved ones, as the spec's init says)
   * and probes its signature.
   *
   * @throws IllegalArgumentException naming what does not fit: not TorchScript, no forward, the
   *     signature, the output's type, shape or values
   */
  static TorchScriptBlock load(TorchScriptSpec spec, NDManager manager, long seed) {
    PtSymbolBlock module;
    try {
      module = JniUtils.loadModule((PtNDManager) manager, new ByteArrayInputStream(spec.module()), true, false);
    } catch (EngineException | IOException e) {
      throw new IllegalArgumentException(where(spec) + ": not a TorchScript module (torch.jit.save's output): "
          + firstLine(e), e);
    }
    List<String> methods = Arrays.asList(JniUtils.getMethodNames(module));
    if (!methods.contains("forward")) {
      module.close();
      throw new IllegalArgumentException(where(spec) + ": the module has no forward method (methods: " + methods + ")");
    }
    boolean hasReset = methods.contains("reset_parameters");
    if (spec.init() == TorchScriptSpec.Init.RESET && !hasReset) {
      module.close();
      throw new IllegalArgumentException(where(spec) + ": init=reset, but the module exports no reset_parameters()"
          + " (decorate it with @torch.jit.export, or use init=saved)");
    }
    boolean reset = hasReset && spec.init() != TorchScriptSpec.Init.SAVED;
    TorchScriptBlock block = new TorchScriptBlock(spec, module, reset);
    try {
      if (reset) {
        // the engine's generator is global: reset_parameters draws under the pair's seed, alone
        EngineSeeds.seeded(seed, () -> IValueUtils.runMethod(module, "reset_parameters").close());
      } else if (spec.init() == TorchScriptSpec.Init.AUTO) {
        block.initialiseStandardLayers(manager, seed);
      }
      block.probe(manager);
    } catch (RuntimeException e) {
      module.close();
      throw e;
    }
    return block;
  }

  /**
   * Without {@code reset_parameters()}: draws the parameters of the module's standard torch.nn
   * layers ({@link TorchScriptLayers}) under {@code seed} as their own {@code reset_parameters}
   * would; every other parameter, and every buffer (batch norm's running statistics), stays as
   * saved. {@link #initialisation()} names both.
   */
  private void initialiseStandardLayers(NDManager manager, long seed) {
    List<TorchScriptLayers.Layer> layers = TorchScriptLayers.read(spec.module());
    Map<String, NDArray> params = new LinkedHashMap<>();
    for (Pair<String, Parameter> p : module.getParameters()) {
      params.put(p.getKey(), p.getValue().getArray());
    }
    Set<String> drawn = new HashSet<>();
    List<String> names = new ArrayList<>();
    boolean grad = JniUtils.isGradMode();
    JniUtils.setGradMode(false); // in-place writes into leaf tensors
    try {
      EngineSeeds.seeded(seed, () -> {
        for (TorchScriptLayers.Layer layer : layers) {
          Map<String, NDArray> own = new LinkedHashMap<>();
          for (Map.Entry<String, NDArray> p : params.entrySet()) {
            String rest = p.getKey().startsWith(layer.path() + ".") ? p.getKey().substring(layer.path().length() + 1) : "";
            if (!rest.isEmpty() && rest.indexOf('.') < 0) {
              own.put(rest, p.getValue());
            }
          }
          if (own.isEmpty()) {
            continue;
          }
          for (Map.Entry<String, NDArray> p : own.entrySet()) {
            try (NDArray v = PytorchDefaultInit.draw(manager, layer, p.getKey(), p.getValue(), own)) {
              p.getValue().muli(0).addi(v);
            }
            drawn.add(layer.path() + "." + p.getKey());
          }
          names.add(layer.path() + " (" + layer.type() + ")");
        }
      });
    } finally {
      JniUtils.setGradMode(grad);
    }
    List<String> left = new ArrayList<>();
    for (String name : params.keySet()) {
      if (!drawn.contains(name)) {
        left.add(name);
      }
    }
    initialisation = "PyTorch's default init under the seed for " + (names.isEmpty() ? "no layer" : String.join(", ", names))
        + "; left as saved: " + (left.isEmpty() ? "no parameter" : String.join(", ", left))
        + (drawn.isEmpty() ? "" : " and every buffer (norms' running statistics)");
  }

  /** Runs the module once in evaluation mode on two small graphs and checks what comes back. */
  private void probe(NDManager manager) {
    List<Graph> graphs = List.of(Graph.fromEdges(3, 0, 1, 1, 2), Graph.fromEdges(4, 0, 1, 1, 2, 2, 3, 3, 0));
    boolean grad = JniUtils.isGradMode();
    JniUtils.setGradMode(false);
    try (NDManager sub = manager.newSubManager()) {
      NDList out;
      try {
        out = module.forward(new ParameterStore(sub, false), encode(sub, graphs), false);
      } catch (EngineException e) {
        throw new IllegalArgumentException(where(spec) + ": forward does not take the " + signature() + ": "
            + firstLine(e), e);
      }
      if (out.size() != 1) {
        throw new IllegalArgumentException(where(spec) + ": forward must return one tensor float[B,d], it returned "
            + out.size() + " values");
      }
      NDArray y = out.singletonOrThrow();
      if (y.getDataType() != DataType.FLOAT32) {
        throw new IllegalArgumentException(where(spec) + ": forward must return float32 (torch.float), it returned "
            + y.getDataType());
      }
      Shape s = y.getShape();
      if (s.dimension() != 2 || s.get(0) != graphs.size() || s.get(1) < 1) {
        throw new IllegalArgumentException(where(spec) + ": forward must return float[B,d], one row per graph; for "
            + graphs.size() + " graphs of " + 3 + " and " + 4 + " vertices it returned shape " + s);
      }
      float[] values = y.toFloatArray();
      for (float v : values) {
        if (!Float.isFinite(v)) {
          throw new IllegalArgumentException(where(spec) + ": forward returned " + v + " on a path and a cycle"
              + " (non-finite output with the initial weights)");
        }
      }
      width = (int) s.get(1);
    } finally {
      JniUtils.setGradMode(grad);
    }
  }

  private String signature() {
    return spec.input() == TorchScriptSpec.Input.SPARSE
        ? "sparse signature forward(x: float[N," + spec.features().size() + "], edge_index: long[2,E], batch: long[N])"
        : "dense signature forward(adj: float[B,n,n], mask: bool[B,n])";
  }

  private static String where(TorchScriptSpec spec) {
    return "torchscript module " + spec.location();
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage()).strip();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl).strip();
  }

  /** Where each pair's initial weights come from, in words: what is drawn from the seed and what stays as saved. */
  String initialisation() {
    return initialisation;
  }

  /** True when each pair's weights came from {@code reset_parameters()}, false for the saved ones. */
  boolean resetsParameters() {
    return reset;
  }

  @Override
  public int outputSize() {
    return width;
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    return spec.input() == TorchScriptSpec.Input.SPARSE
        ? NodeTables.activationBytes(g.n(), g.maxDegree(), spec.width(), spec.depth()) * (spec.marking() ? g.n() : 1)
        : 4L * maxVertices * maxVertices * spec.width() * spec.depth() * DENSE_TENSORS_PER_LAYER;
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) { // no positional encodings (ModelSpec refuses pe)
    List<Graph> graphs = batch.graphs();
    return spec.input() == TorchScriptSpec.Input.SPARSE ? sparse(manager, graphs) : dense(manager, graphs);
  }

  /**
   * x: N×F node features, edge_index: both directions of every edge, batch: the graph of every node.
   * With a marking feature ({@code spd}) each graph enters as its n copies, copy r with vertex r
   * marked, all under the graph's one batch index: the module's pooling over a graph's nodes then
   * pools over its marked copies too (DS-GNN's node marking for any module).
   */
  private NDList sparse(NDManager manager, List<Graph> graphs) {
    boolean marking = spec.marking();
    int nodes = 0;
    int arcs = 0;
    for (Graph g : graphs) {
      int copies = marking ? g.n() : 1;
      nodes = Math.addExact(nodes, copies * g.n());
      arcs = Math.addExact(arcs, copies * 2 * g.m());
    }
    List<NodeFeature> fs = spec.features();
    float[] x = new float[Math.multiplyExact(nodes, fs.size())];
    long[] edges = new long[2 * arcs];
    long[] batch = new long[nodes];
    int offset = 0;
    int arc = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      float[][] unmarked = new float[fs.size()][]; // the same in every copy: computed once
      for (int f = 0; f < fs.size(); f++) {
        unmarked[f] = fs.get(f).marks() ? null : fs.get(f).values(g);
      }
      int copies = marking ? g.n() : 1;
      for (int c = 0; c < copies; c++) {
        int marked = marking ? c : -1; // copy c marks vertex c
        for (int f = 0; f < fs.size(); f++) {
          float[] column = unmarked[f] != null ? unmarked[f] : fs.get(f).values(g, marked);
          for (int v = 0; v < g.n(); v++) {
            x[(offset + v) * fs.size() + f] = column[v];
          }
        }
        for (int v = 0; v < g.n(); v++) {
          batch[offset + v] = b;
          for (int u : g.neighbors(v)) {
            edges[arc] = offset + u; // source row
            edges[arcs + arc] = offset + v; // target row
            arc++;
          }
        }
        offset += g.n();
      }
    }
    return new NDList(manager.create(x, new Shape(nodes, fs.size())), manager.create(edges, new Shape(2, arcs)),
        manager.create(batch, new Shape(nodes)));
  }

  /** adj: B×n×n zero-padded adjacency, mask: B×n true on real vertices. */
  private static NDList dense(NDManager manager, List<Graph> graphs) {
    int n = 1;
    for (Graph g : graphs) {
      n = Math.max(n, g.n());
    }
    int b = graphs.size();
    float[] adj = new float[b * n * n];
    boolean[] mask = new boolean[b * n];
    for (int i = 0; i < b; i++) {
      Graph g = graphs.get(i);
      for (int v = 0; v < g.n(); v++) {
        mask[i * n + v] = true;
        for (int u : g.neighbors(v)) {
          adj[(i * n + v) * n + u] = 1f;
        }
      }
    }
    return new NDList(manager.create(adj, new Shape(b, n, n)), manager.create(mask, new Shape(b, n)));
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    // DJL's optimiser updates only the parameters a pass fetched from the store; the module reads
    // its own tensors, so they are fetched here (the same arrays on one device, no copy)
    for (Pair<String, Parameter> p : module.getParameters()) {
      ps.getValue(p.getValue(), inputs.head().getDevice(), training);
    }
    NDArray y = module.forward(ps, inputs, training).singletonOrThrow();
    long rows = spec.input() == TorchScriptSpec.Input.SPARSE ? -1 : inputs.get(0).getShape().get(0);
    Shape s = y.getShape();
    if (s.dimension() != 2 || s.get(1) != width || (rows >= 0 && s.get(0) != rows)) {
      throw new IllegalStateException(where(spec) + ": forward returned shape " + s + ", expected [B," + width + "]");
    }
    return new NDList(y);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    // the module's parameters were loaded (and reset) with it
  }
}

package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.training.ParameterStore;
import ai.djl.util.Pair;
import io.expresso.graph.Graph;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** Campi et al.'s count models ({@link I2Gnn}, {@link PpgnCounter}, {@link GinCounter}) against their code's sizes and small cases by hand. */
class CountModelsTest {

  private static long parameters(GraphRegressor net) {
    try (NDManager m = NDManager.newBaseManager()) {
      Block b = net.block();
      b.initialize(m, DataType.FLOAT32, net.inputShapes(m));
      long total = 0;
      for (Pair<String, Parameter> p : b.getParameters()) {
        if (p.getValue().requiresGradient()) { // batch norm's running statistics are not PyTorch parameters
          total += p.getValue().getArray().size();
        }
      }
      return total;
    }
  }

  @Test
  void i2gnnHasTheAuthorsParameterCountLessTheUnusedTransform() {
    // Their I2GNN(num_layers=5) (tests/model.pth sums to the same): 237,825 trainable parameters, of
    // which transform_before_conv[0] (Linear(128, 64): 8,256) is registered but never called.
    assertThat(parameters(RegressorSpec.parse("i2gnn:hidden=64,layers=5,hops=1").create())).isEqualTo(237_825 - 8_256);
    assertThat(parameters(RegressorSpec.parse("i2gnn:hidden=64,layers=5,hops=2").create())).isEqualTo(229_569);
  }

  @Test
  void ppgnHasTheAuthorsParameterCounts() {
    // PPGN(in_channels, hidden_channels, out_channels, num_layers, depth_of_mlp) of src/ppgn/ppgn.py, counted with torch
    assertThat(parameters(RegressorSpec.parse("ppgn").create())).isEqualTo(343_105); // 1, 128, 64, 4, 2
    assertThat(parameters(RegressorSpec.parse("ppgn:in=1,hidden=32,d=32,layers=3").create())).isEqualTo(22_241);
    assertThat(parameters(RegressorSpec.parse("ppgn:in=32,hidden=64,d=32,layers=3").create())).isEqualTo(63_521);
    assertThat(parameters(RegressorSpec.parse("ppgn:in=64,hidden=128,d=64,layers=5").create())).isEqualTo(482_625);
    assertThat(parameters(RegressorSpec.parse("ppgn:in=1,hidden=8,d=4,layers=2").create())).isEqualTo(549);
  }

  @Test
  void ginHasTheAuthorsParameterCounts() {
    // GIN(in_channels, hidden_channels, num_layers, out_channels, ...) of src/baseline/model_gcn.py, counted with
    // torch (scripts/robust-reference-counts.py); the recipe's spec is their tests/model.json
    String recipe = io.expresso.train.CountRecipe.of("gin", io.expresso.count.Pattern.TRIANGLE).spec();
    assertThat(recipe).isEqualTo("gin:in=1,hidden=128,out=64,layers=4");
    assertThat(parameters(RegressorSpec.parse(recipe).create())).isEqualTo(243_525); // 1, 128, 4, 64, elu, concat
    assertThat(parameters(RegressorSpec.parse(recipe + ",bn=true").create())).isEqualTo(246_469);
    assertThat(parameters(RegressorSpec.parse("gin:in=32,hidden=64,out=32,layers=3,concat=false").create()))
        .isEqualTo(42_596);
    assertThat(parameters(RegressorSpec.parse("gin:in=64,hidden=128,out=64,layers=5").create())).isEqualTo(333_766);
    assertThat(parameters(RegressorSpec.parse("gin:in=1,hidden=8,out=4,layers=2,bn=true").create())).isEqualTo(527);
  }

  @Test
  void ginWithHandSetWeightsCountsWedges() {
    // eps = -1 drops the node's own term, identity MLPs keep ReLU's non-negative inputs: layer 0 gives each
    // vertex its degree d, layer 1 the sum of its neighbours' degrees; the concatenated add-pool is
    // [2m, Σ d²] and the head's (-1/2, 1/2) makes Σ d(d - 1)/2, the wedges (2-paths, not induced)
    GinCounter net = (GinCounter) RegressorSpec.parse("gin:in=1,hidden=1,out=1,layers=2,act=relu").create();
    Graph p4 = Graph.fromEdges(4, 0, 1, 1, 2, 2, 3);
    Graph star = Graph.fromEdges(5, 0, 1, 0, 2, 0, 3); // and an isolated vertex 4
    Graph k4 = Graph.fromEdges(4, 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3);
    Graph c5 = Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0);
    try (NDManager m = NDManager.newBaseManager()) {
      net.initialize(m, DataType.FLOAT32, net.inputShapes(m));
      net.getDirectParameters().values().forEach(eps -> eps.getArray().set(new float[] {-1}));
      for (int l = 0; l < 2; l++) {
        List<Parameter> conv = linears(child(net, "conv" + l));
        conv.get(0).getArray().set(new float[] {1, 0}); // (2, 1)
        conv.get(1).getArray().set(new float[] {0, 0});
        conv.get(2).getArray().set(new float[] {1, 0}); // (1, 2)
        conv.get(3).getArray().set(new float[] {0});
      }
      List<Parameter> head = linears(net.head());
      head.get(0).getArray().set(new float[] {-0.5f, 0.5f});
      head.get(1).getArray().set(new float[] {0});
      head.get(2).getArray().set(new float[] {1});
      head.get(3).getArray().set(new float[] {0});
      NDList in = net.inputs(m, List.of(p4, star, k4, c5));
      assertThat(in.get(0).getShape().getShape()).containsExactly(18, 1); // all-ones features, one row per vertex
      assertThat(in.get(3).getShape().getShape()).containsExactly(4, 5); // pooling table, padded to 5
      float[] y = net.forward(new ParameterStore(m, false), in, false).head().toFloatArray();
      assertThat(y).containsExactly(new float[] {2, 3, 12, 5}, Offset.offset(1e-5f));
      for (int g = 0; g < 4; g++) { // the same as induced 2-paths plus three per triangle
        Graph graph = List.of(p4, star, k4, c5).get(g);
        assertThat(y[g]).isCloseTo(io.expresso.count.InducedCounts.count(graph, io.expresso.count.Pattern.TWO_PATH)
            + 3 * io.expresso.count.InducedCounts.count(graph, io.expresso.count.Pattern.TRIANGLE), Offset.offset(1e-5f));
      }
    }
  }

  @Test
  void ginAgreesWithTheAuthorsModuleOnFixedWeights() {
    // their GIN built and run by scripts/robust-reference-counts.py on the same fixed weights (its formula),
    // a tailed triangle with an isolated vertex and a 4-cycle in one batch, eval mode
    Graph tailed = Graph.fromEdges(5, 0, 1, 1, 2, 2, 0, 2, 3);
    Graph c4 = Graph.fromEdges(4, 0, 1, 1, 2, 2, 3, 3, 0);
    java.util.Map<String, float[]> theirs = java.util.Map.of(
        "gin:in=2,hidden=3,out=2,layers=3", new float[] {1.3460984f, 1.2227240f},
        "gin:in=1,hidden=4,out=3,layers=2,act=softmax,pool=mean,aggr=mean,concat=false,bn=true",
        new float[] {0.2698216f, 0.2698189f},
        "gin:in=1,hidden=3,out=3,layers=2,act=tanh,pool=max", new float[] {0.2204083f, 0.1803557f});
    for (var e : theirs.entrySet()) {
      GinCounter net = (GinCounter) RegressorSpec.parse(e.getKey()).create();
      try (NDManager m = NDManager.newBaseManager()) {
        net.initialize(m, DataType.FLOAT32, net.inputShapes(m));
        for (int l = 0; l < net.options().layers(); l++) {
          net.getDirectParameters().get("eps" + l).getArray().set(new float[] {0.1f * (l + 1) * (l % 2 == 0 ? 1 : -1)});
        }
        int t = 0;
        int b = 0;
        List<Block> sequences = new java.util.ArrayList<>();
        for (int l = 0; l < net.options().layers(); l++) {
          sequences.add(child(net, "conv" + l));
        }
        sequences.add(net.head());
        for (Block sequence : sequences) {
          for (Block c : sequence.getChildren().values()) {
            if (c instanceof ai.djl.nn.core.Linear) {
              NDArray w = c.getParameters().get("weight").getArray();
              float[] wv = new float[(int) w.size()];
              float[] bv = new float[(int) w.getShape().get(0)];
              int in = (int) w.getShape().get(1);
              for (int o = 0; o < bv.length; o++) {
                bv[o] = (float) (0.2 * Math.cos(0.9 * t + 0.5 * o));
                for (int i = 0; i < in; i++) {
                  wv[o * in + i] = (float) (0.5 * Math.sin(1.3 * t + 0.7 * o + 0.31 * i + 0.1));
                }
              }
              w.set(wv);
              c.getParameters().get("bias").getArray().set(bv);
              t++;
            } else if (c instanceof ai.djl.nn.norm.BatchNorm) {
              NDArray gamma = c.getParameters().get("gamma").getArray();
              float[] gv = new float[(int) gamma.size()];
              float[] bv = new float[gv.length];
              for (int k = 0; k < gv.length; k++) {
                gv[k] = (float) (1 + 0.1 * Math.sin(k + b));
                bv[k] = (float) (0.05 * Math.cos(k + b));
              }
              gamma.set(gv);
              c.getParameters().get("beta").getArray().set(bv);
              b++;
            }
          }
        }
        float[] y = net.forward(new ParameterStore(m, false), net.inputs(m, List.of(tailed, c4)), false).head()
            .toFloatArray();
        assertThat(y).as(e.getKey()).containsExactly(e.getValue(), Offset.offset(2e-6f));
      }
    }
  }

  @Test
  void ginLearnsToCountAndItsEpsIsTrained() {
    // a training sanity check: 30 full-batch Adam steps on 24 ER(10, 0.3) graphs bring the L1 on their
    // edge counts below half of what predicting the mean would make; ε gets gradients (GINConv(train_eps=True))
    List<Graph> graphs = io.expresso.count.RobustnessData.erdosRenyi(80, 0.3, 5).train().graphs();
    float[] edges = new float[graphs.size()];
    float mean = 0;
    for (int g = 0; g < graphs.size(); g++) {
      edges[g] = graphs.get(g).m();
      mean += edges[g] / graphs.size();
    }
    float meanError = 0;
    for (float e : edges) {
      meanError += Math.abs(e - mean) / edges.length;
    }
    Engine.getInstance().setRandomSeed(5);
    GinCounter net = (GinCounter) RegressorSpec.parse("gin:hidden=16,out=8,layers=2,act=relu").create();
    try (ai.djl.Model model = ai.djl.Model.newInstance("gin")) {
      model.setBlock(net);
      try (ai.djl.training.Trainer trainer = model.newTrainer(new ai.djl.training.DefaultTrainingConfig(
          ai.djl.training.loss.Loss.l1Loss()).optOptimizer(ai.djl.training.optimizer.Optimizer.adam()
          .optLearningRateTracker(ai.djl.training.tracker.Tracker.fixed(0.03f)).build()))) {
        trainer.initialize(net.inputShapes(trainer.getManager()));
        NDList in = net.inputs(trainer.getManager(), graphs);
        NDList label = new NDList(trainer.getManager().create(edges));
        float first = 0;
        float last = 0;
        for (int step = 0; step < 30; step++) {
          try (ai.djl.training.GradientCollector gc = trainer.newGradientCollector()) {
            NDArray loss = trainer.getLoss().evaluate(label, trainer.forward(in));
            last = loss.getFloat();
            first = step == 0 ? last : first;
            gc.backward(loss);
          }
          trainer.step();
        }
        assertThat(last).as("L1 from %.2f, the mean's %.2f", first, meanError).isLessThan(meanError / 2);
      }
    }
    net = (GinCounter) RegressorSpec.parse("gin:hidden=4,out=2,layers=2").create();
    try (NDManager m = NDManager.newBaseManager()) {
      net.initialize(m, DataType.FLOAT32, net.inputShapes(m));
      try (ai.djl.training.GradientCollector gc = Engine.getInstance().newGradientCollector()) {
        NDList in = net.inputs(m, graphs.subList(0, 4));
        gc.backward(net.forward(new ParameterStore(m, false), in, true).head().sum());
      }
      assertThat(net.getDirectParameters().values()).hasSize(2)
          .allSatisfy(e -> assertThat(e.getArray().getGradient().getFloat(0)).isNotZero());
    }
  }

  /** A child block by its name (DJL prefixes the names with their position). */
  private static Block child(Block parent, String name) {
    return parent.getChildren().stream().filter(p -> p.getKey().endsWith(name)).findFirst().orElseThrow().getValue();
  }

  /** The Linear weights and biases of a sequence, in order. */
  private static List<Parameter> linears(Block sequence) {
    List<Parameter> out = new java.util.ArrayList<>();
    for (Block child : sequence.getChildren().values()) {
      if (child instanceof ai.djl.nn.core.Linear) {
        out.add(child.getParameters().get("weight"));
        out.add(child.getParameters().get("bias"));
      }
    }
    return out;
  }

  @Test
  void i2gnnSubgraphsFollowTheAuthorsConstruction() {
    // Path 0-1-2 plus an isolated vertex 3, radius 1: pairs (0,1), (1,0), (1,2), (2,1), and vertex 3
    // alone (their create_subgraphs2 gives a root without neighbours one subgraph of itself).
    Graph g = Graph.fromEdges(4, 0, 1, 1, 2);
    // Packed rows, no padding: pair (0,1) rows 0-1 (vertices 0, 1), (1,0) rows 2-4 and (1,2) rows 5-7
    // (vertices 0, 1, 2), (2,1) rows 8-9 (vertices 1, 2), vertex 3 alone row 10.
    try (NDManager m = NDManager.newBaseManager()) {
      NDList in = I2GnnNetwork.inputs(m, List.of(g), 1, I2GnnNetwork.Labels.HOP);
      assertThat(in.get(0).getShape().getShape()).containsExactly(11, 11); // adjacency over the 11 rows
      assertThat(in.get(1).getShape().getShape()).containsExactly(11, 3); // labels 0 (other), 1 (root), 2 (neighbour)
      // pair (1, 0): vertex 0 is the marked neighbour (2), 1 the root (1), 2 other (0)
      assertThat(Arrays.copyOfRange(in.get(1).toFloatArray(), 6, 15)).containsExactly(0, 0, 1, 0, 1, 0, 1, 0, 0);
      float[] adjacency = in.get(0).toDense().toFloatArray();
      assertThat(Arrays.copyOfRange(adjacency, 2 * 11 + 2, 2 * 11 + 5)).containsExactly(0, 1, 0); // row 2 (vertex 0)
      assertThat(Arrays.copyOfRange(adjacency, 3 * 11 + 2, 3 * 11 + 5)).containsExactly(1, 0, 1); // row 3 (vertex 1)
      assertThat(Arrays.copyOfRange(adjacency, 10 * 11, 11 * 11)).containsOnly(0f); // vertex 3 alone: no edges
      assertThat(Arrays.copyOfRange(in.get(1).toFloatArray(), 30, 33)).containsExactly(0, 1, 0); // ... labelled root
      assertThat(in.get(2).toDense().toFloatArray()).containsExactly( // node-to-subgraph (5 subgraphs × 11 rows)
          1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0,
          0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0,
          0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0,
          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
      assertThat(in.get(3).toDense().toFloatArray()).containsExactly( // subgraph-to-root (4 roots × 5 subgraphs)
          1, 0, 0, 0, 0,
          0, 1, 1, 0, 0,
          0, 0, 0, 1, 0,
          0, 0, 0, 0, 1);
      assertThat(in.get(4).toDense().toFloatArray()).containsExactly(1, 1, 1, 1); // root-to-graph
    }
  }

  @Test
  void countModelsGiveOneNumberPerGraphIndependentOfLabelsBatchAndPadding() {
    Graph c5 = Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0);
    Graph k4 = Graph.fromEdges(4, 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3);
    Graph relabelled = c5.relabel(new int[] {2, 4, 1, 0, 3});
    for (String spec : List.of("i2gnn:hidden=8,layers=2,hops=2", "i2gnn:hidden=8,layers=2,hops=1,conv=gin",
        "ppgn:hidden=8,d=4,layers=3", "gin:hidden=8,out=4,layers=3", "gin:hidden=8,out=4,layers=2,pool=max,act=tanh")) {
      Engine.getInstance().setRandomSeed(3);
      GraphRegressor net = RegressorSpec.parse(spec).create();
      try (NDManager m = NDManager.newBaseManager()) {
        net.block().initialize(m, DataType.FLOAT32, net.inputShapes(m));
        float[] y = forward(net, m, List.of(c5, k4, relabelled));
        assertThat(y).as(spec).hasSize(3);
        assertThat(y[2]).as(spec).isCloseTo(y[0], Offset.offset(1e-4f));
        assertThat(Math.abs(y[0] - y[1])).as(spec).isGreaterThan(1e-5f);
        assertThat(forward(net, m, List.of(k4))[0]).as(spec).isCloseTo(y[1], Offset.offset(1e-4f));
      }
    }
  }

  @Test
  void ppgnComputesTheAuthorsForwardPassAlsoInBatchesOfMixedSizes() {
    // their PPGN.forward (pooling 'add', concat) by hand in doubles, from the network's own parameters
    Graph c5 = Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0);
    Graph tailed = Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 2, 3, 3, 4, 0, 5);
    Engine.getInstance().setRandomSeed(5);
    GraphRegressor net = RegressorSpec.parse("ppgn:in=1,hidden=4,d=3,layers=3,depth=2").create();
    try (NDManager m = NDManager.newBaseManager()) {
      net.block().initialize(m, DataType.FLOAT32, net.inputShapes(m));
      java.util.Random random = new java.util.Random(7);
      List<float[]> values = new java.util.ArrayList<>();
      for (Pair<String, Parameter> p : net.block().getParameters()) {
        NDArray a = p.getValue().getArray();
        if (p.getKey().endsWith("bias")) { // their biases start at zero: random ones test them too
          float[] b = new float[(int) a.size()];
          for (int i = 0; i < b.length; i++) {
            b[i] = (float) random.nextGaussian() * 0.3f;
          }
          a.set(b);
        }
        values.add(a.toFloatArray());
      }
      float[] both = forward(net, m, List.of(c5, tailed)); // padded to 6 vertices
      float[] alone = {forward(net, m, List.of(c5))[0], forward(net, m, List.of(tailed))[0]};
      Graph[] graphs = {c5, tailed};
      for (int g = 0; g < 2; g++) {
        double expected = authorsPpgn(graphs[g], values, 1, 4, 3, 3);
        assertThat((double) alone[g]).as("graph %d alone", g).isCloseTo(expected, Offset.offset(1e-4 * (1 + Math.abs(expected))));
        assertThat((double) both[g]).as("graph %d in a padded batch", g).isCloseTo(expected, Offset.offset(1e-4 * (1 + Math.abs(expected))));
      }
    }
  }

  /**
   * src/ppgn/ppgn.py's PPGN(in, hidden, out, layers, depth 2) on one graph: parameters in the
   * network's order (per block: left MLP, right MLP, skip; then the final MLP), each weight row-major.
   */
  private static double authorsPpgn(Graph g, List<float[]> p, int in, int hidden, int out, int layers) {
    int n = g.n();
    double[][][] x = new double[in + 1][n][n];
    for (int v = 0; v < n; v++) {
      for (int c = 0; c < in; c++) {
        x[c][v][v] = 1;
      }
      for (int w = 0; w < n; w++) {
        x[in][v][w] = g.adjacent(v, w) ? 1 : 0;
      }
    }
    int k = 0;
    List<double[][][]> blocks = new java.util.ArrayList<>();
    for (int l = 0; l < layers; l++) {
      int width = l == layers - 1 ? out : hidden;
      double[][][] m1 = relu(conv(relu(conv(x, p.get(k), p.get(k + 1), width)), p.get(k + 2), p.get(k + 3), width));
      double[][][] m2 = relu(conv(relu(conv(x, p.get(k + 4), p.get(k + 5), width)), p.get(k + 6), p.get(k + 7), width));
      double[][][] joined = new double[x.length + width][][];
      System.arraycopy(x, 0, joined, 0, x.length);
      for (int c = 0; c < width; c++) {
        joined[x.length + c] = new double[n][n];
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < n; j++) {
            for (int t = 0; t < n; t++) {
              joined[x.length + c][i][j] += m1[c][i][t] * m2[c][t][j];
            }
          }
        }
      }
      x = conv(joined, p.get(k + 8), p.get(k + 9), width);
      blocks.add(x);
      k += 10;
    }
    List<Double> diagonal = new java.util.ArrayList<>();
    List<Double> offDiagonal = new java.util.ArrayList<>();
    for (double[][][] b : blocks) {
      for (double[][] channel : b) {
        double d = 0;
        double all = 0;
        for (int i = 0; i < n; i++) {
          d += channel[i][i];
          for (int j = 0; j < n; j++) {
            all += channel[i][j];
          }
        }
        diagonal.add(d);
        offDiagonal.add(all - d);
      }
    }
    diagonal.addAll(offDiagonal);
    double[] features = diagonal.stream().mapToDouble(Double::doubleValue).toArray();
    float[] w1 = p.get(k);
    float[] b1 = p.get(k + 1);
    float[] w2 = p.get(k + 2);
    double y = p.get(k + 3)[0];
    for (int o = 0; o < out; o++) {
      double h = b1[o];
      for (int i = 0; i < features.length; i++) {
        h += w1[o * features.length + i] * features[i];
      }
      y += w2[o] * Math.max(0, h);
    }
    return y;
  }

  /** A 1×1 convolution: out[o] = Σ_c w[o][c] x[c] + b[o] per cell. */
  private static double[][][] conv(double[][][] x, float[] w, float[] b, int outChannels) {
    int n = x[0].length;
    assertThat(w).hasSize(outChannels * x.length);
    double[][][] y = new double[outChannels][n][n];
    for (int o = 0; o < outChannels; o++) {
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          double s = b[o];
          for (int c = 0; c < x.length; c++) {
            s += w[o * x.length + c] * x[c][i][j];
          }
          y[o][i][j] = s;
        }
      }
    }
    return y;
  }

  private static double[][][] relu(double[][][] x) {
    for (double[][] c : x) {
      for (double[] row : c) {
        for (int i = 0; i < row.length; i++) {
          row[i] = Math.max(0, row[i]);
        }
      }
    }
    return x;
  }

  @Test
  void ppgnInputsHoldTheDiagonalChannelsThenTheAdjacency() {
    GraphRegressor net = RegressorSpec.parse("ppgn:in=2,hidden=4,d=2,layers=2").create();
    try (NDManager m = NDManager.newBaseManager()) {
      NDList in = net.inputs(m, List.of(Graph.fromEdges(2, 0, 1)));
      assertThat(in.size()).isEqualTo(1); // one size, no padding mask
      assertThat(in.get(0).toFloatArray()).containsExactly(1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0);
    }
  }

  @Test
  void badSpecsAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> RegressorSpec.parse("ppgn:layers=1")).hasMessageContaining("layers must be >= 2");
    assertThatThrownBy(() -> RegressorSpec.parse("ppgn:width=3")).hasMessageContaining("got 'width=3'");
    assertThatThrownBy(() -> RegressorSpec.parse("i2gnn:conv=gcn")).hasMessageContaining("conv must be one of gated, gin");
    assertThatThrownBy(() -> RegressorSpec.parse("gin:layers=1")).hasMessageContaining("layers must be >= 2");
    assertThatThrownBy(() -> RegressorSpec.parse("gin:pool=sum")).hasMessageContaining("pool must be one of add, mean, max");
    assertThatThrownBy(() -> RegressorSpec.parse("gin:jk=cat")).hasMessageContaining("got 'jk=cat'");
    assertThat(RegressorSpec.parse("gin:hidden=16,act=relu,bn=true").toString())
        .isEqualTo("gin:in=1,hidden=16,out=64,layers=4,act=relu,bn=true");
    assertThat(RegressorSpec.parse("gin").withSizes(16, 2).toString()).isEqualTo("gin:in=1,hidden=16,out=16,layers=2");
    assertThat(RegressorSpec.parse("ppgn:hidden=16,layers=3").toString())
        .isEqualTo("ppgn:in=1,hidden=16,d=64,layers=3,depth=2");
    assertThat(RegressorSpec.parse("ppgn").withSizes(16, 2).toString()).isEqualTo("ppgn:in=1,hidden=16,d=16,layers=2,depth=2");
  }

  private static float[] forward(GraphRegressor net, NDManager m, List<Graph> graphs) {
    NDList in = net.inputs(m, graphs);
    return net.block().forward(new ParameterStore(m, false), in, false).head().toFloatArray();
  }

  @SuppressWarnings("unused")
  private static String show(float[] a) {
    return Arrays.toString(a);
  }
}

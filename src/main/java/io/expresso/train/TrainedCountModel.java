package io.expresso.train;

import io.expresso.engine.Devices;
import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.ParameterStore;
import io.expresso.attack.CountModel;
import io.expresso.count.CountingDataset;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.model.GraphRegressor;
import io.expresso.model.RegressorSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A trained count regressor: the network, the pattern it counts and the affine map from network
 * output to count (targets are standardised during training). Predicts in batches, so it is the
 * {@link CountModel} the attacks query. Serialises to bytes (header + DJL parameters) so a
 * checkpoint can travel through Kafka and any worker can load it.
 */
public final class TrainedCountModel implements CountModel, AutoCloseable {

  private static final String MAGIC = "expresso-count-model-1";
  static final int PREDICT_BATCH = 64;

  private final Model model;
  private final RegressorSpec spec;
  private final GraphRegressor net;
  private final Pattern pattern;
  private double mean;
  private double scale;

  TrainedCountModel(Model model, RegressorSpec spec, GraphRegressor net, Pattern pattern, double mean, double scale) {
    this.model = model;
    this.spec = spec;
    this.net = net;
    this.pattern = pattern;
    this.mean = mean;
    this.scale = scale;
  }

  public RegressorSpec spec() {
    return spec;
  }

  public Pattern pattern() {
    return pattern;
  }

  GraphRegressor net() {
    return net;
  }

  Model model() {
    return model;
  }

  double mean() {
    return mean;
  }

  double scale() {
    return scale;
  }

  void setTargetMap(double mean, double scale) {
    this.mean = mean;
    this.scale = scale;
  }

  @Override
  public double[] predict(List<Graph> graphs) {
    double[] out = new double[graphs.size()];
    boolean before = JniUtils.isGradMode();
    JniUtils.setGradMode(false); // inference only: no autograd graph (grad mode is per thread)
    try {
      for (int from = 0; from < graphs.size(); from += PREDICT_BATCH) {
        List<Graph> batch = graphs.subList(from, Math.min(graphs.size(), from + PREDICT_BATCH));
        try (NDManager m = model.getNDManager().newSubManager()) {
          NDList in = net.inputs(m, batch);
          NDArray y = net.block().forward(new ParameterStore(m, false), in, false).head();
          float[] v = y.toType(DataType.FLOAT32, false).toFloatArray();
          for (int i = 0; i < v.length; i++) {
            out[from + i] = v[i] * scale + mean;
          }
        }
      }
    } finally {
      JniUtils.setGradMode(before);
    }
    return out;
  }

  /** ℓ1 and ℓc of this model on {@code data}. */
  public CountErrors evaluate(CountingDataset data) {
    long[] counts = new long[data.graphs().size()];
    for (int g = 0; g < counts.length; g++) {
      counts[g] = data.count(g, pattern);
    }
    return CountErrors.of(predict(data.graphs()), counts);
  }

  /** Indices of the graphs of {@code data} whose rounded prediction equals the count. */
  public List<Integer> correctlyPredicted(CountingDataset data) {
    double[] p = predict(data.graphs());
    List<Integer> out = new ArrayList<>();
    for (int g = 0; g < p.length; g++) {
      if (Math.round(p[g]) == data.count(g, pattern)) {
        out.add(g);
      }
    }
    return out;
  }

  /** The checkpoint: header (spec, pattern, target map) and the network parameters. */
  public byte[] toBytes() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeUTF(MAGIC);
      out.writeUTF(spec.toString());
      out.writeUTF(pattern.cliName());
      out.writeDouble(mean);
      out.writeDouble(scale);
      net.block().saveParameters(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialise model parameters", e);
    }
  }

  /** What a checkpoint holds, read without loading the network (no engine needed). */
  public record Header(String spec, Pattern pattern) {}

  /**
   * The spec and pattern of a checkpoint written by {@link #toBytes()}, without the engine: a
   * publisher checks what it is about to attack before any worker loads it.
   *
   * @throws IllegalArgumentException when the bytes are not such a checkpoint, saying what is wrong
   */
  public static Header header(byte[] checkpoint) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(checkpoint))) {
      String magic = in.readUTF();
      if (!magic.equals(MAGIC)) {
        throw new IllegalArgumentException("not a count-model checkpoint (header '" + magic + "')");
      }
      return new Header(RegressorSpec.parse(in.readUTF()).toString(), Pattern.fromName(in.readUTF()));
    } catch (IOException e) {
      throw new IllegalArgumentException("corrupt count-model checkpoint: " + e.getMessage(), e);
    }
  }

  /**
   * Loads a checkpoint written by {@link #toBytes()}.
   *
   * @throws IllegalArgumentException when the bytes are not such a checkpoint, saying what is wrong
   */
  public static TrainedCountModel fromBytes(byte[] checkpoint, String device) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(checkpoint))) {
      String magic = in.readUTF();
      if (!magic.equals(MAGIC)) {
        throw new IllegalArgumentException("not a count-model checkpoint (header '" + magic + "')");
      }
      RegressorSpec spec = RegressorSpec.parse(in.readUTF());
      Pattern pattern = Pattern.fromName(in.readUTF());
      double mean = in.readDouble();
      double scale = in.readDouble();
      GraphRegressor net = spec.create();
      Model model = io.expresso.engine.Devices.newModel(spec.architecture(), io.expresso.engine.Devices.parse(device));
      model.setBlock(net.block());
      net.block().initialize(model.getNDManager(), DataType.FLOAT32, net.inputShapes(model.getNDManager()));
      net.block().loadParameters(model.getNDManager(), in);
      return new TrainedCountModel(model, spec, net, pattern, mean, scale);
    } catch (IOException | ai.djl.MalformedModelException e) {
      throw new IllegalArgumentException("corrupt count-model checkpoint: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    model.close();
  }
}

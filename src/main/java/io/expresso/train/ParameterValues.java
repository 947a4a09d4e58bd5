package io.expresso.train;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.util.Pair;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A network's parameter values as bytes, written back into the arrays the network already holds.
 *
 * <p>Not DJL's {@code saveParameters}/{@code loadParameters}: loading swaps new arrays into the
 * parameters, while a {@code Trainer} goes on updating the arrays it was initialised with (its
 * parameter store). A run resumed or rolled back that way trained its old arrays (for a resumed
 * process: a fresh initialisation) while validation and snapshots read the loaded ones, which never
 * changed again. Copying values in place keeps the one set of arrays both sides use.
 */
final class ParameterValues {

  private static final String MAGIC = "expresso-parameter-values-1";

  private ParameterValues() {}

  /** Every parameter's name, type, shape and values, in the block's order. */
  static byte[] snapshot(Block block) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      List<Pair<String, Parameter>> params = block.getParameters().stream().toList();
      out.writeUTF(MAGIC);
      out.writeInt(params.size());
      for (Pair<String, Parameter> p : params) {
        NDArray a = p.getValue().getArray();
        out.writeUTF(p.getKey());
        out.writeUTF(a.getDataType().name());
        long[] shape = a.getShape().getShape();
        out.writeInt(shape.length);
        for (long d : shape) {
          out.writeLong(d);
        }
        ByteBuffer values = a.toByteBuffer();
        byte[] raw = new byte[values.remaining()];
        values.get(raw);
        out.writeInt(raw.length);
        out.write(raw);
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("cannot snapshot parameters", e);
    }
  }

  /**
   * Copies {@code values} (a {@link #snapshot}) into the block's own arrays, in place.
   *
   * @throws IllegalArgumentException when the values are not a snapshot of a network of this shape
   */
  static void restore(Block block, byte[] values) {
    List<Pair<String, Parameter>> params = block.getParameters().stream().toList();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(values))) {
      String magic = in.readUTF();
      if (!MAGIC.equals(magic)) {
        throw new IllegalArgumentException("not parameter values (header '" + magic + "', expected " + MAGIC + ")");
      }
      int n = in.readInt();
      if (n != params.size()) {
        throw new IllegalArgumentException("parameter values of " + n + " parameters for a network of "
            + params.size());
      }
      for (Pair<String, Parameter> p : params) {
        String name = in.readUTF();
        DataType type = DataType.valueOf(in.readUTF());
        long[] shape = new long[in.readInt()];
        for (int d = 0; d < shape.length; d++) {
          shape[d] = in.readLong();
        }
        NDArray a = p.getValue().getArray();
        if (!name.equals(p.getKey()) || type != a.getDataType() || !new Shape(shape).equals(a.getShape())) {
          throw new IllegalArgumentException("parameter values for " + name + " " + type + new Shape(shape)
              + " do not fit " + p.getKey() + " " + a.getDataType() + a.getShape());
        }
        byte[] raw = new byte[in.readInt()];
        in.readFully(raw);
        a.set(ByteBuffer.allocateDirect(raw.length).order(ByteOrder.nativeOrder()).put(raw).flip());
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("parameter values truncated: " + e.getMessage(), e);
    }
  }
}

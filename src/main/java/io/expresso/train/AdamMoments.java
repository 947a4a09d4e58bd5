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
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link SerialAdam}'s state as bytes, by parameter name: what a resumed run needs to take the very
 * steps the uninterrupted run would have taken. The optimiser knows parameters by id (a random UUID
 * per process), the network by name, so the bytes name them and the restore maps names back to the
 * new network's ids.
 *
 * <p>Layout ({@link DataOutputStream}, big-endian):
 *
 * <pre>
 * UTF    "expresso-adam-moments-1"
 * int    n: parameters with moments, in the order of their names ({@link String#compareTo})
 * n ×    UTF name · int updates (its own count; bias correction's t is the largest) ·
 *        UTF data type (DJL's name, FLOAT32) · int rank · rank × long dimension (the parameter's shape) ·
 *        int bytes · first moment · second moment (each {@code bytes} long, flat, in the platform's byte
 *        order, as {@link ParameterValues} writes values)
 * </pre>
 *
 * A parameter without moments (frozen, or never in a forward pass) has no entry.
 */
final class AdamMoments {

  private static final String MAGIC = "expresso-adam-moments-1";

  private AdamMoments() {}

  /** The moments and update counts {@code adam} holds for {@code block}'s parameters. */
  static byte[] snapshot(SerialAdam adam, Block block) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      Map<String, Parameter> withMoments = new TreeMap<>();
      for (Map.Entry<String, Parameter> e : byName(block).entrySet()) {
        if (adam.moments(e.getValue().getId()) != null) {
          withMoments.put(e.getKey(), e.getValue());
        }
      }
      out.writeUTF(MAGIC);
      out.writeInt(withMoments.size());
      for (Map.Entry<String, Parameter> e : withMoments.entrySet()) {
        Parameter p = e.getValue();
        NDArray[] mv = adam.moments(p.getId());
        out.writeUTF(e.getKey());
        out.writeInt(adam.updates(p.getId()));
        out.writeUTF(mv[0].getDataType().name());
        long[] shape = p.getArray().getShape().getShape();
        out.writeInt(shape.length);
        for (long d : shape) {
          out.writeLong(d);
        }
        byte[] first = raw(mv[0]);
        byte[] second = raw(mv[1]);
        out.writeInt(first.length);
        out.write(first);
        out.write(second);
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("cannot snapshot Adam's moments", e);
    }
  }

  /**
   * Gives {@code adam} (fresh, before its first update) the moments of {@code bytes} for
   * {@code block}'s parameters.
   *
   * @throws IllegalArgumentException naming the parameter, when the moments do not fit the network
   */
  static void restore(SerialAdam adam, Block block, byte[] bytes) {
    Map<String, Parameter> params = byName(block);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      String magic = in.readUTF();
      if (!MAGIC.equals(magic)) {
        throw new IllegalArgumentException("not Adam's moments (header '" + magic + "', expected " + MAGIC + ")");
      }
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        String name = in.readUTF();
        int updates = in.readInt();
        DataType type = DataType.valueOf(in.readUTF());
        long[] dims = new long[in.readInt()];
        for (int d = 0; d < dims.length; d++) {
          dims[d] = in.readLong();
        }
        Shape shape = new Shape(dims);
        Parameter p = params.get(name);
        if (p == null) {
          throw new IllegalArgumentException("Adam's moments for parameter " + name + " " + shape
              + ": the network has no such parameter");
        }
        NDArray w = p.getArray();
        if (!shape.equals(w.getShape()) || type != w.getDataType() || !p.requiresGradient()) {
          throw new IllegalArgumentException("Adam's moments for parameter " + name + " " + type + shape
              + " do not fit the network's " + w.getDataType() + w.getShape()
              + (p.requiresGradient() ? "" : ", which is frozen"));
        }
        int length = in.readInt();
        if (length != w.size() * type.getNumOfBytes() || updates < 1) {
          throw new IllegalArgumentException("Adam's moments for parameter " + name + " are corrupt (" + length
              + " bytes, " + updates + " updates, for " + w.size() + " values)");
        }
        Shape flat = new Shape(w.size());
        NDArray first = w.getManager().create(read(in, length), flat, type);
        NDArray second = w.getManager().create(read(in, length), flat, type);
        adam.resume(p.getId(), updates, first, second);
      }
      if (in.read() != -1) {
        throw new IllegalArgumentException("Adam's moments are corrupt (bytes after their " + n + " parameters)");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("Adam's moments truncated: " + e.getMessage(), e);
    }
  }

  /** The block's parameters by name (names are unique in a DJL block; a duplicate could not be restored). */
  private static Map<String, Parameter> byName(Block block) {
    Map<String, Parameter> out = new TreeMap<>();
    for (Pair<String, Parameter> p : block.getParameters()) {
      if (out.put(p.getKey(), p.getValue()) != null) {
        throw new IllegalStateException("two parameters named " + p.getKey() + ": Adam's moments cannot name them");
      }
    }
    return out;
  }

  private static byte[] raw(NDArray a) {
    ByteBuffer values = a.toByteBuffer();
    byte[] raw = new byte[values.remaining()];
    values.get(raw);
    return raw;
  }

  private static ByteBuffer read(DataInputStream in, int length) throws IOException {
    byte[] raw = new byte[length];
    in.readFully(raw);
    return ByteBuffer.allocateDirect(length).order(ByteOrder.nativeOrder()).put(raw).flip();
  }
}

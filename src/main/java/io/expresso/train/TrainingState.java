package io.expresso.train;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Where a count-regression run stands after an epoch: enough to continue it on another process as
 * if it had not stopped, except Adam's moments. DJL 0.36's {@code Adam} keeps its first and second
 * moments (and the per-parameter step counts of its bias correction) in private maps with no
 * accessor, so a resumed run starts Adam afresh from the saved parameters — a warm restart — and
 * its trajectory differs from an uninterrupted run's from the first resumed step on.
 *
 * @param epoch epochs finished
 * @param seed the run's seed (a state resumes only the run it came from)
 * @param parameters the network's parameters after {@code epoch} (a {@link ParameterValues} snapshot)
 * @param bestParameters those of {@code bestEpoch}, null before any validation
 * @param bestEpoch the epoch with the lowest validation ℓ1 so far (0: none)
 * @param bestValidationL1 that ℓ1
 * @param lastLoss the last epoch's mean training ℓ1 (in counts)
 * @param plateau the learning-rate schedule's state
 * @param orderState the state of the generator that draws each epoch's batch order
 */
public record TrainingState(int epoch, long seed, byte[] parameters, byte[] bestParameters, int bestEpoch,
    double bestValidationL1, double lastLoss, PlateauSchedule.State plateau, long orderState) {

  private static final String MAGIC = "expresso-training-state-2";

  public byte[] toBytes() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeUTF(MAGIC);
      out.writeInt(epoch);
      out.writeLong(seed);
      out.writeInt(bestEpoch);
      out.writeDouble(bestValidationL1);
      out.writeDouble(lastLoss);
      out.writeFloat(plateau.rate());
      out.writeDouble(plateau.best());
      out.writeInt(plateau.badEpochs());
      out.writeLong(orderState);
      writeBytes(out, parameters);
      writeBytes(out, bestParameters);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the training state", e);
    }
  }

  /** @throws IllegalArgumentException when {@code bytes} is not a training state */
  public static TrainingState fromBytes(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      String magic = in.readUTF();
      if (!MAGIC.equals(magic)) {
        throw new IllegalArgumentException("not a training state (header '" + magic + "', expected " + MAGIC + ")");
      }
      int epoch = in.readInt();
      long seed = in.readLong();
      int bestEpoch = in.readInt();
      double bestVal = in.readDouble();
      double lastLoss = in.readDouble();
      PlateauSchedule.State plateau = new PlateauSchedule.State(in.readFloat(), in.readDouble(), in.readInt());
      long order = in.readLong();
      byte[] params = readBytes(in);
      byte[] best = readBytes(in);
      if (params == null) {
        throw new IllegalArgumentException("training state of epoch " + epoch + " has no parameters");
      }
      return new TrainingState(epoch, seed, params, best, bestEpoch, bestVal, lastLoss, plateau, order);
    } catch (IOException e) {
      throw new IllegalArgumentException("not a training state (truncated: " + e.getMessage() + ")", e);
    }
  }

  private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b == null ? -1 : b.length);
    if (b != null) {
      out.write(b);
    }
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }
}

package io.expresso.train;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Where a count-regression run stands after an epoch: enough to continue it on another process as
 * if it had not stopped. A run stopped after epoch k and resumed from this state trains the same
 * parameters and validation ℓ1, bit for bit, as the uninterrupted run ({@code TrainingResumeTest}),
 * given a network that draws nothing at random while training (libtorch's generator, which dropout
 * draws from, is not saved).
 *
 * <p>Bytes ({@link #toBytes}, {@link DataOutputStream}, big-endian), format 3:
 *
 * <pre>
 * UTF    "expresso-training-state-3"
 * int    epoch · long seed · int best epoch · double best validation ℓ1 · double last loss
 * float  plateau rate · double plateau best · int plateau bad epochs · long batch-order generator state
 * int    recoveries                              (format 3)
 * int n, n bytes   parameters (a {@link ParameterValues} snapshot)
 * int n, n bytes   best parameters (n = −1: none)
 * int n, n bytes   Adam's moments (an {@link AdamMoments} snapshot; n = −1: none)   (format 3)
 * </pre>
 *
 * Format 2 ({@code "expresso-training-state-2"}) is the same without the two format-3 fields; it
 * still loads, as a state without moments and without recoveries: Adam then starts afresh on the
 * saved parameters (a warm restart, whose trajectory differs from an uninterrupted run's).
 *
 * <p>Not saved, because it follows from what is: whether DJL's trainer has passed its check against
 * gradients that sum to zero — it has exactly when Adam has taken a step ({@link OptimizerStep}).
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
 * @param adam Adam's moments and update counts after {@code epoch} (an {@link AdamMoments} snapshot),
 *     null: none saved (a format-2 state; one exported {@code --without-moments}; a finished state
 *     stripped to its best parameters)
 * @param recoveries the divergence recoveries spent so far (each one back to the best epoch at a
 *     smaller rate, at most {@link CountRegressionTrainer#MAX_RECOVERIES} per run)
 */
public record TrainingState(int epoch, long seed, byte[] parameters, byte[] bestParameters, int bestEpoch,
    double bestValidationL1, double lastLoss, PlateauSchedule.State plateau, long orderState, byte[] adam,
    int recoveries) {

  private static final String MAGIC = "expresso-training-state-3";
  /** The format before Adam's moments were saved. */
  private static final String MAGIC_2 = "expresso-training-state-2";

  /** This state with other parameters and best parameters, Adam's moments as {@code adam}. */
  public TrainingState with(byte[] newParameters, byte[] newBest, byte[] newAdam) {
    return new TrainingState(epoch, seed, newParameters, newBest, bestEpoch, bestValidationL1, lastLoss, plateau,
        orderState, newAdam, recoveries);
  }

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
      out.writeInt(recoveries);
      writeBytes(out, parameters);
      writeBytes(out, bestParameters);
      writeBytes(out, adam);
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
      boolean three = MAGIC.equals(magic);
      if (!three && !MAGIC_2.equals(magic)) {
        throw new IllegalArgumentException("not a training state (header '" + magic + "', expected " + MAGIC
            + " or " + MAGIC_2 + ")");
      }
      int epoch = in.readInt();
      long seed = in.readLong();
      int bestEpoch = in.readInt();
      double bestVal = in.readDouble();
      double lastLoss = in.readDouble();
      PlateauSchedule.State plateau = new PlateauSchedule.State(in.readFloat(), in.readDouble(), in.readInt());
      long order = in.readLong();
      int recoveries = three ? in.readInt() : 0;
      byte[] params = readBytes(in);
      byte[] best = readBytes(in);
      byte[] adam = three ? readBytes(in) : null;
      if (params == null) {
        throw new IllegalArgumentException("training state of epoch " + epoch + " has no parameters");
      }
      return new TrainingState(epoch, seed, params, best, bestEpoch, bestVal, lastLoss, plateau, order, adam,
          recoveries);
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

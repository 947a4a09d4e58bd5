package io.expresso.robust.fleet;

import com.google.protobuf.InvalidProtocolBufferException;
import io.expresso.model.RegressorSpec;
import io.expresso.robust.RobustProtos;
import io.expresso.robust.TrainJob;
import io.expresso.train.CountRegressionTrainer;
import io.expresso.train.TrainingState;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

/**
 * An experiment's saved training states in one file, to carry training from one broker to another
 * (a GPU machine that starts bare every session): {@code expresso states export} writes the states
 * of {@code expresso.models} whose model ids start with {@code E/}, each with the train job that saved
 * it; {@code expresso states import} writes them into another cluster's {@code expresso.models}, where
 * publishing the same train tasks again resumes each one after its saved epoch
 * ({@code io.expresso.robust.JobRunner}).
 *
 * <p>Compact: gzip at its best level, each state's bytes regrouped by their position in 4-byte words
 * first (the parameters are float32: exponents compress, mantissas barely do); a running state's best
 * parameters stored as their bitwise XOR with its last ones (a few epochs apart, their signs,
 * exponents and leading mantissa bits mostly agree: zeros); and a finished run's state keeps its best
 * parameters only (no last parameters, no Adam moments), since resuming it trains nothing and
 * restores those.
 */
public final class TrainStateArchive {

  static final String MAGIC = "expresso-train-states-1";
  /** How an entry's state is stored: whole; finished (best parameters only); best as XOR with the last. */
  private static final byte WHOLE = 0;
  private static final byte FINISHED = 1;
  private static final byte BEST_AS_XOR = 2;
  private static final int MAX_ENTRY_BYTES = 256 << 20;

  private TrainStateArchive() {}

  /** One train job and the state its run saved. */
  public record Entry(TrainJob job, TrainingState state) {

    /** Whether the run had ended (epoch cap or early stop): resuming it trains nothing. */
    public boolean finished() {
      CountRegressionTrainer.Settings s = job.recipe(RegressorSpec.parse(job.spec()).architecture())
          .settings(job.seed(), "cpu");
      return s.finished(state.epoch(), state.bestEpoch());
    }

    /** This entry without Adam's moments: its task resumes with Adam afresh (a warm restart), in fewer bytes. */
    public Entry withoutMoments() {
      return new Entry(job, state.with(state.parameters(), state.bestParameters(), null));
    }
  }

  /** The states saved for experiment {@code experiment}'s train jobs, by model id. */
  public static List<Entry> export(KafkaModelStore store, String experiment) {
    List<Entry> out = new ArrayList<>();
    for (KafkaModelStore.SavedProgress p : store.progressUnder(experiment + "/")) {
      out.add(new Entry(p.job(), TrainingState.fromBytes(p.state())));
    }
    return out;
  }

  /** What {@link #importInto} did with each entry. */
  public record Imported(Entry entry, boolean written, int storedEpoch) {}

  /**
   * Writes the entries' states into {@code store}, each under its job's model id; an entry whose job
   * already has a state there at the same or a later epoch is left out (the cluster is further along).
   */
  public static List<Imported> importInto(KafkaModelStore store, List<Entry> entries) {
    Map<TrainJob, Integer> there = new HashMap<>();
    for (KafkaModelStore.SavedProgress p : store.progressUnder("")) {
      there.put(p.job(), TrainingState.fromBytes(p.state()).epoch());
    }
    List<Imported> out = new ArrayList<>();
    for (Entry e : entries) {
      Integer epoch = there.get(e.job());
      boolean write = epoch == null || epoch < e.state().epoch();
      if (write) {
        store.putProgress(e.job(), e.state().toBytes());
      }
      out.add(new Imported(e, write, epoch == null ? 0 : epoch));
    }
    return out;
  }

  /** Writes {@code entries} to {@code file} (replacing it whole: a cut-off write leaves the old file). */
  public static void write(Path file, List<Entry> entries) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".part");
    try (OutputStream os = Files.newOutputStream(tmp);
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new BestGzip(os), 1 << 16))) {
      out.writeUTF(MAGIC);
      out.writeInt(entries.size());
      for (Entry e : entries) {
        byte[] job = RobustProtos.message(e.job()).toByteArray();
        TrainingState s = e.state();
        byte form = WHOLE;
        if (s.bestParameters() != null && e.finished()) {
          // resuming trains nothing and restores the best: the last parameters and Adam's moments are never read
          form = FINISHED;
          s = s.with(new byte[0], s.bestParameters(), null);
        } else if (s.bestParameters() != null && s.bestParameters().length == s.parameters().length) {
          form = BEST_AS_XOR;
          s = s.with(s.parameters(), xor(s.bestParameters(), s.parameters()), s.adam());
        }
        byte[] state = byWordPosition(s.toBytes());
        out.writeInt(job.length);
        out.write(job);
        out.writeByte(form);
        out.writeInt(state.length);
        out.write(state);
      }
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * The entries of a file {@link #write} wrote.
   *
   * @throws IllegalArgumentException naming the file, when it is missing, unreadable, not such a file,
   *     cut off or corrupt
   */
  public static List<Entry> read(Path file) {
    try (InputStream is = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new BufferedInputStream(new GZIPInputStream(is), 1 << 16))) {
      String magic;
      try {
        magic = in.readUTF();
      } catch (IOException e) {
        throw bad(file, "not an Expresso train-state file (no header)");
      }
      if (!MAGIC.equals(magic)) {
        throw bad(file, "not an Expresso train-state file (header '" + printable(magic) + "', expected " + MAGIC + ")");
      }
      int n = in.readInt();
      if (n < 0) {
        throw bad(file, "corrupt (" + n + " entries)");
      }
      List<Entry> entries = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] jobBytes = block(in, file);
        TrainJob job;
        try {
          job = RobustProtos.job(io.expresso.proto.v1.TrainJob.parseFrom(jobBytes));
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
          throw bad(file, "entry " + (i + 1) + " of " + n + ": its train job is unreadable (" + e.getMessage() + ")");
        }
        byte form = in.readByte();
        if (form != WHOLE && form != FINISHED && form != BEST_AS_XOR) {
          throw bad(file, "entry " + (i + 1) + " (" + job.modelId() + "): corrupt (form " + form + ")");
        }
        byte[] stateBytes = fromWordPosition(block(in, file));
        TrainingState s;
        try {
          s = TrainingState.fromBytes(stateBytes);
        } catch (IllegalArgumentException e) {
          throw bad(file, "entry " + (i + 1) + " (" + job.modelId() + "): " + e.getMessage());
        }
        if (form != WHOLE && (s.bestParameters() == null
            || (form == BEST_AS_XOR && s.bestParameters().length != s.parameters().length))) {
          throw bad(file, "entry " + (i + 1) + " (" + job.modelId() + "): corrupt (its best parameters)");
        }
        if (form == FINISHED) {
          s = s.with(s.bestParameters(), s.bestParameters(), s.adam());
        } else if (form == BEST_AS_XOR) {
          s = s.with(s.parameters(), xor(s.bestParameters(), s.parameters()), s.adam());
        }
        if (s.seed() != job.seed()) {
          throw bad(file, "entry " + (i + 1) + " (" + job.modelId() + "): a state of seed " + s.seed()
              + " for a job of seed " + job.seed());
        }
        entries.add(new Entry(job, s));
      }
      if (in.read() != -1) {
        throw bad(file, "corrupt (bytes after its " + n + " entries)");
      }
      return entries;
    } catch (NoSuchFileException e) {
      throw bad(file, "no such file");
    } catch (ZipException e) {
      throw bad(file, "not an Expresso train-state file or corrupt (gzip: " + e.getMessage() + ")");
    } catch (EOFException e) {
      throw bad(file, "cut off (ends inside an entry)");
    } catch (IOException e) {
      throw bad(file, "cannot read it (" + e.getMessage() + ")");
    }
  }

  private static byte[] block(DataInputStream in, Path file) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_ENTRY_BYTES) {
      throw bad(file, "corrupt (a block of " + n + " bytes)");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  private static IllegalArgumentException bad(Path file, String what) {
    return new IllegalArgumentException("train-state file " + file + ": " + what);
  }

  private static String printable(String s) {
    String t = s.replaceAll("[^\\x20-\\x7e]", "?");
    return t.length() > 40 ? t.substring(0, 40) + "…" : t;
  }

  private static byte[] xor(byte[] a, byte[] b) {
    byte[] out = new byte[a.length];
    for (int k = 0; k < a.length; k++) {
      out[k] = (byte) (a[k] ^ b[k]);
    }
    return out;
  }

  /** The bytes at word positions 0, then 1, 2 and 3 (the tail of a length not divisible by 4 last). */
  static byte[] byWordPosition(byte[] b) {
    int words = b.length / 4;
    byte[] out = new byte[b.length];
    for (int k = 0; k < 4; k++) {
      for (int w = 0; w < words; w++) {
        out[k * words + w] = b[4 * w + k];
      }
    }
    System.arraycopy(b, 4 * words, out, 4 * words, b.length - 4 * words);
    return out;
  }

  /** The inverse of {@link #byWordPosition}. */
  static byte[] fromWordPosition(byte[] b) {
    int words = b.length / 4;
    byte[] out = new byte[b.length];
    for (int k = 0; k < 4; k++) {
      for (int w = 0; w < words; w++) {
        out[4 * w + k] = b[k * words + w];
      }
    }
    System.arraycopy(b, 4 * words, out, 4 * words, b.length - 4 * words);
    return out;
  }

  /** gzip at deflate's best compression (the JDK's stream has no level argument). */
  private static final class BestGzip extends GZIPOutputStream {
    BestGzip(OutputStream out) throws IOException {
      super(out, 1 << 16);
      def.setLevel(Deflater.BEST_COMPRESSION);
    }
  }
}

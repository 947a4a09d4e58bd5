package io.expresso.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.stats.PairJudgement;
import io.expresso.train.MemoryUse;
import io.expresso.train.PairEvaluation;
import io.expresso.train.TrainingOutcome;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The JSONL file {@code eval} streams its results to, one line per judged pair as soon as it is
 * judged, so that a run killed at pair 336 keeps 336 results and the same command resumes there.
 * The first line holds the configuration (everything that decides a pair's result besides the
 * pair and the seed); a file of another configuration is never appended to. Pairs that ended in
 * an error are not kept: a resumed run tries them again.
 */
public final class EvalResults implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Map<String, PairEvaluation> judged;
  private final BufferedWriter out;

  private EvalResults(Path file, Map<String, PairEvaluation> judged, BufferedWriter out) {
    this.file = file;
    this.judged = judged;
    this.out = out;
  }

  /** The default file for a configuration: {@code DIR/<suite>-<model>-<hash of the configuration>.jsonl}. */
  public static Path defaultFile(Path dir, String suiteName, String architecture, ObjectNode config) {
    try {
      byte[] sha = MessageDigest.getInstance("SHA-256").digest(JSON.writeValueAsBytes(config));
      return dir.resolve(suiteName + "-" + architecture + "-" + HexFormat.of().formatHex(sha, 0, 4) + ".jsonl");
    } catch (IOException | NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Opens {@code file} for {@code config}: with {@code resume}, keeps the results already there
   * (dropping a last line cut short by a kill); without, starts the file over.
   *
   * @throws IllegalArgumentException if the file holds another configuration's results, or a
   *     line that is not a result (naming the line)
   */
  public static EvalResults open(Path file, ObjectNode config, boolean resume) throws IOException {
    JsonNode expected = JSON.readTree(JSON.writeValueAsString(config)); // numbers as the file holds them
    Map<String, PairEvaluation> judged = new HashMap<>();
    boolean exists = resume && Files.isRegularFile(file) && Files.size(file) > 0;
    if (exists) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      long keep = 0;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        JsonNode node;
        try {
          node = JSON.readTree(line);
        } catch (IOException e) {
          if (i == lines.size() - 1) {
            break; // a line cut short by a kill: dropped, its pair runs again
          }
          throw new IllegalArgumentException(file + " line " + (i + 1) + " is not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (i == 0) {
          if (node == null || !expected.equals(node.get("config"))) {
            throw new IllegalArgumentException(file + " holds results of another configuration ("
                + (node == null || node.get("config") == null ? "no configuration line" : differences(expected, node.get("config")))
                + "); give another --results file, or --no-resume to start it over");
          }
        } else {
          PairEvaluation e = fromJson(node, file, i + 1);
          judged.put(key(e.seed(), e.index()), e);
        }
        keep += line.getBytes(StandardCharsets.UTF_8).length + 1;
      }
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(keep);
        if (ch.size() < keep) { // the last kept line lacks its newline
          ch.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}), ch.size());
        }
      }
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    BufferedWriter out = exists
        ? Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND)
        : Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    EvalResults r = new EvalResults(file, judged, out);
    if (!exists) {
      ObjectNode header = JSON.createObjectNode();
      header.set("config", config);
      r.writeLine(header);
    }
    return r;
  }

  /** The keys whose values differ, as {@code key: file's value, now value}. */
  private static String differences(JsonNode now, JsonNode inFile) {
    java.util.Set<String> keys = new java.util.TreeSet<>();
    now.fieldNames().forEachRemaining(keys::add);
    inFile.fieldNames().forEachRemaining(keys::add);
    java.util.List<String> out = new java.util.ArrayList<>();
    for (String k : keys) {
      if (!java.util.Objects.equals(now.get(k), inFile.get(k))) {
        out.add(k + ": " + inFile.get(k) + " in the file, " + now.get(k) + " now");
      }
    }
    return String.join("; ", out);
  }

  public Path file() {
    return file;
  }

  /** Pairs judged before this run (resumed). */
  public int resumed() {
    return judged.size();
  }

  /** The result already in the file for this seed and pair, or null. */
  public PairEvaluation judged(long seed, int index) {
    return judged.get(key(seed, index));
  }

  /** Appends one pair's result and flushes it to the file. */
  public void append(PairEvaluation e) {
    writeLine(toJson(e));
  }

  private void writeLine(ObjectNode node) {
    try {
      out.write(JSON.writeValueAsString(node));
      out.newLine();
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": cannot append a result: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  private static String key(long seed, int index) {
    return seed + "/" + index;
  }

  public static ObjectNode toJson(PairEvaluation e) {
    ObjectNode o = JSON.createObjectNode();
    PairJudgement j = e.judgement();
    TrainingOutcome t = e.training();
    MemoryUse m = e.memory();
    o.put("seed", e.seed()).put("index", e.index()).put("category", e.category())
        .put("t2_test", finite(j.t2Test())).put("t2_reliability", finite(j.t2Reliability()))
        .put("threshold", finite(j.threshold())).put("distinguished", j.distinguished()).put("reliable", j.reliable())
        .put("epochs", t.epochs()).put("final_loss", finite(t.finalLoss())).put("skipped_steps", t.skippedSteps())
        .put("final_learning_rate", t.finalLearningRate()).put("training_seconds", t.seconds())
        .put("seconds", e.seconds()).put("parameters", e.parameters())
        .put("memory_budget_bytes", m.budgetBytes()).put("training_graphs_per_pass", m.trainingGraphsPerPass())
        .put("inference_graphs_per_pass", m.inferenceGraphsPerPass()).put("peak_rss_bytes", m.peakRssBytes());
    return o;
  }

  private static PairEvaluation fromJson(JsonNode o, Path file, int line) {
    try {
      PairJudgement j = new PairJudgement(num(o, "t2_test"), num(o, "t2_reliability"), num(o, "threshold"),
          o.get("distinguished").asBoolean(), o.get("reliable").asBoolean());
      TrainingOutcome t = new TrainingOutcome(o.get("epochs").asInt(), num(o, "final_loss"),
          o.get("skipped_steps").asInt(), (float) o.get("final_learning_rate").asDouble(),
          o.get("training_seconds").asDouble(), o.get("training_graphs_per_pass").asInt());
      MemoryUse m = new MemoryUse(o.get("memory_budget_bytes").asLong(), o.get("training_graphs_per_pass").asInt(),
          o.get("inference_graphs_per_pass").asInt(), o.get("peak_rss_bytes").asLong());
      return new PairEvaluation(o.get("index").asInt(), o.get("category").asText(), o.get("seed").asLong(), j, t,
          o.get("seconds").asDouble(), o.get("parameters").asLong(), m);
    } catch (NullPointerException e) {
      throw new IllegalArgumentException(file + " line " + line + " is not a pair result (a field is missing): " + o);
    }
  }

  private static double num(JsonNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null) {
      throw new NullPointerException(field);
    }
    return v.isNull() ? Double.NaN : v.asDouble();
  }

  /** JSON has no NaN or infinity: those become null. */
  public static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }
}

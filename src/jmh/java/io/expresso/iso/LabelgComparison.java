package io.expresso.iso;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Times nauty's {@code labelg} and {@link Canonizer} on the same graphs in the same run.
 *
 * <p>labelg's per-graph time excludes process start: (time on a file holding the set 5 times −
 * time on a 1-graph file) / (5N − 1), each the minimum of 10 runs (it includes labelg's graph6
 * parsing and writing). Ours: after JIT warm-up, the minimum of 30 passes over the set,
 * certificate included. labelg runs and our passes are interleaved so both meet the same machine
 * load. Also checks that both give the same isomorphism classes.
 *
 * <p>Run: {@code java -cp target/benchmarks.jar io.expresso.iso.LabelgComparison [graphsPerFamily]}
 */
public final class LabelgComparison {

  private LabelgComparison() {}

  static List<Graph> family(String name, int count) {
    return switch (name) {
      case "molecules" -> BenchGraphs.molecules(count, 1);
      case "sbm30" -> BenchGraphs.sbm(count, 2);
      default -> throw new IllegalArgumentException("unknown family " + name);
    };
  }

  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    Path labelg = findLabelg();
    Path dir = Files.createTempDirectory("labelg-bench");
    System.out.printf(Locale.ROOT, "%-10s %7s %14s %14s %7s %s%n", "family", "graphs", "labelg us/graph",
        "ours us/graph", "ratio", "classes (labelg / ours)");
    for (String fam : List.of("molecules", "sbm30")) {
      List<Graph> graphs = family(fam, count);
      // labelg reads the set REPEAT times from one file, so process start is a small share.
      List<Graph> repeated = new ArrayList<>();
      for (int r = 0; r < REPEAT; r++) {
        repeated.addAll(graphs);
      }
      Path big = dir.resolve(fam + ".g6");
      Path one = dir.resolve(fam + "-1.g6");
      Graph6.writeFile(big, repeated);
      Graph6.writeFile(one, graphs.subList(0, 1));
      Path out = dir.resolve(fam + ".out");
      List<Certificate> ours = new ArrayList<>();
      for (int w = 0; w < 40; w++) { // JIT warm-up
        ours.clear();
        graphs.forEach(g -> ours.add(Canonizer.certificate(g)));
      }
      // Interleaved rounds, so that both sides meet the same machine load; minimum of each.
      double tBig = Double.MAX_VALUE;
      double tOne = Double.MAX_VALUE;
      double tOurs = Double.MAX_VALUE;
      for (int r = 0; r < ROUNDS; r++) {
        tBig = Math.min(tBig, runLabelg(labelg, big, out));
        tOne = Math.min(tOne, runLabelg(labelg, one, dir.resolve("one.out")));
        for (int k = 0; k < 3; k++) {
          ours.clear();
          long t0 = System.nanoTime();
          for (Graph g : graphs) {
            ours.add(Canonizer.certificate(g));
          }
          tOurs = Math.min(tOurs, System.nanoTime() - t0);
        }
      }
      double labelgUs = (tBig - tOne) / (repeated.size() - 1) / 1e3;
      double oursUs = tOurs / count / 1e3;
      List<String> nautyForms = Files.readAllLines(out, StandardCharsets.US_ASCII).subList(0, count);
      int nautyClasses = classes(nautyForms);
      int ourClasses = classes(ours);
      boolean same = sameClasses(nautyForms, ours);
      System.out.printf(Locale.ROOT, "%-10s %7d %14.2f %14.2f %7.2f %d / %d%s%n", fam, count, labelgUs, oursUs,
          oursUs / labelgUs, nautyClasses, ourClasses, same ? " (same partition)" : " (PARTITIONS DIFFER)");
    }
  }

  private static final int REPEAT = 5;
  private static final int ROUNDS = 10;

  private static <T> int classes(List<T> keys) {
    return new java.util.HashSet<>(keys).size();
  }

  private static boolean sameClasses(List<String> nauty, List<Certificate> ours) {
    Map<String, Integer> a = new HashMap<>();
    Map<Certificate, Integer> b = new HashMap<>();
    for (int i = 0; i < ours.size(); i++) {
      int x = a.computeIfAbsent(nauty.get(i), k -> a.size());
      int y = b.computeIfAbsent(ours.get(i), k -> b.size());
      if (x != y) {
        return false;
      }
    }
    return true;
  }

  /** Wall time of one labelg process in nanoseconds. */
  static double runLabelg(Path labelg, Path in, Path out) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(labelg.toString(), "-q", in.toString(), out.toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    long t0 = System.nanoTime();
    Process p = pb.start();
    int rc = p.waitFor();
    long t1 = System.nanoTime();
    if (rc != 0) {
      throw new IOException("labelg exited with " + rc);
    }
    return t1 - t0;
  }

  static Path findLabelg() {
    for (String name : List.of("labelg", "nauty-labelg")) {
      for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path p = Path.of(d, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    throw new IllegalStateException("nauty's labelg is not on the PATH (apt-get install nauty)");
  }
}

package io.expresso.iso;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** nauty's {@code labelg} as a subprocess: the oracle for canonical forms. */
final class Labelg {

  private Labelg() {}

  /** The labelg executable on the PATH ({@code labelg}, or Debian's {@code nauty-labelg}). */
  static Optional<Path> find() {
    return findTool("labelg");
  }

  /** A nauty tool on the PATH under its own name or Debian's {@code nauty-} prefixed one. */
  static Optional<Path> findTool(String tool) {
    String pathVar = System.getenv("PATH");
    if (pathVar == null) {
      return Optional.empty();
    }
    for (String name : List.of(tool, "nauty-" + tool)) {
      for (String dir : pathVar.split(File.pathSeparator)) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  /** Runs a nauty tool with arguments, failing with its output if it fails. */
  static void run(List<String> cmd) throws IOException, InterruptedException {
    Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String log = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (proc.waitFor() != 0) {
      throw new IOException(cmd + " failed: " + log);
    }
  }

  /** labelg's canonical graph6 string for each graph, in order. */
  static List<String> canonicalForms(Path labelg, List<Graph> graphs, Path workDir) throws IOException, InterruptedException {
    return canonicalForms(labelg, graphs, null, workDir);
  }

  /**
   * labelg's canonical forms with the vertex partition {@code -f colouring}: one character per
   * vertex, the same for every graph; isomorphisms must preserve the characters.
   */
  static List<String> canonicalForms(Path labelg, List<Graph> graphs, String colouring, Path workDir)
      throws IOException, InterruptedException {
    Path in = workDir.resolve("in.g6");
    Path out = workDir.resolve("out.g6");
    Graph6.writeFile(in, graphs);
    List<String> cmd = new java.util.ArrayList<>(List.of(labelg.toString(), "-q"));
    if (colouring != null) {
      cmd.add("-f" + colouring);
    }
    cmd.addAll(List.of(in.toString(), out.toString()));
    Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String log = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (proc.waitFor() != 0) {
      throw new IOException("labelg failed: " + log);
    }
    List<String> lines = Files.readAllLines(out, StandardCharsets.US_ASCII).stream()
        .filter(l -> !l.isBlank()).toList();
    if (lines.size() != graphs.size()) {
      throw new IOException("labelg wrote " + lines.size() + " graphs for " + graphs.size());
    }
    return lines;
  }
}

package io.expresso.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Locates and runs the external programs the observability tests use (promtool, prometheus,
 * node, chromium, nauty, docker-compose). {@code scripts/test-tools} installs them from Debian, so a missing
 * one is a test failure that names the package and the script, never a skip.
 */
public final class ExternalTools {
  private ExternalTools() {}

  /** The path of {@code name} on PATH (or /usr/bin), or an AssertionError saying how to install it. */
  public static Path require(String name, String debianPackage) {
    List<Path> candidates = new ArrayList<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty()) {
        candidates.add(Path.of(dir, name));
      }
    }
    candidates.add(Path.of("/usr/bin", name));
    for (Path p : candidates) {
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw new AssertionError(missing(name, debianPackage));
  }

  /**
   * The first python3 that imports every module of {@code imports} (a Python import statement's
   * list, {@code "numpy"} or {@code "numpy, torch"}): the one on PATH, else Debian's
   * /usr/bin/python3, where python3-* packages install (a pyenv or venv first on PATH may lack
   * them). {@code scripts/test-tools} checks the same way before installing anything. Otherwise an
   * AssertionError naming the packages, what each interpreter said, and the script.
   */
  public static Path python3(String imports, String debianPackages) throws IOException, InterruptedException {
    java.util.Set<Path> candidates = new java.util.LinkedHashSet<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "python3"))) {
        candidates.add(Path.of(dir, "python3")); // the first on PATH
        break;
      }
    }
    candidates.add(Path.of("/usr/bin/python3"));
    List<String> tried = new ArrayList<>();
    for (Path p : candidates) {
      if (!Files.isExecutable(p)) {
        continue;
      }
      Run r = run(List.of(p.toString(), "-c", "import " + imports), null, 120);
      if (r.exitCode() == 0) {
        return p;
      }
      tried.add(p + ": " + r.output().strip().lines().reduce((a, b) -> b).orElse(""));
    }
    throw new AssertionError(missing("a python3 with " + imports + " (" + (tried.isEmpty() ? "no python3 found" : tried)
        + ")", debianPackages));
  }

  /** The failure message for a missing tool: its Debian package and the script that installs it. */
  public static String missing(String what, String debianPackage) {
    return what + " is not installed: apt-get install -y " + debianPackage
        + " (or run scripts/test-tools, which installs every tool the tests need)";
  }

  /** Runs a command with stdin from {@code input}; returns exit code and combined output. */
  public static Run run(List<String> command, String input, long timeoutSeconds)
      throws IOException, InterruptedException {
    // output to a file, not a pipe read to its end: a program that hangs (or leaves a child
    // holding the pipe, as a browser does) must fail the test after the timeout, not block it
    Path out = Files.createTempFile("expresso-tool-", ".out");
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (input != null) {
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
      }
      p.getOutputStream().close();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new AssertionError(command + " did not finish in " + timeoutSeconds + " s; its output:\n"
            + new String(Files.readAllBytes(out), StandardCharsets.UTF_8));
      }
      return new Run(p.exitValue(), new String(Files.readAllBytes(out), StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  /** A finished command. */
  public record Run(int exitCode, String output) {}
}

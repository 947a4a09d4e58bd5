package io.expresso;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package map of docs/architecture.md is the code's: its table lists every package of
 * {@code src/main/java/io/expresso} in layer order, each with the packages it may use, and the
 * sources use no other (imports and fully qualified names; generated {@code proto} is free to
 * all). A package may use only packages listed above it, so the graph has no circle and no arrow
 * up. The graph found is printed and written to {@code target/package-graph.txt}: run this test
 * alone to see it.
 */
class ArchitectureTest {

  private static final Path SOURCES = Path.of("src/main/java/io/expresso");
  private static final Path MAP = Path.of("docs/architecture.md");
  private static final Pattern ROW = Pattern.compile("^\\| `([a-z][a-z./]*)/` \\|.*\\| ([^|]+) \\|\\s*$");
  private static final Pattern REFERENCE = Pattern.compile("\\bio\\.expresso\\.([a-z]\\w*(?:\\.[a-z]\\w*)*)\\.[A-Z*]");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package io\\.expresso\\.([\\w.]+);");

  /** Package (dotted, below io.expresso) → the packages its sources use, with how many files use each. */
  private static Map<String, Map<String, Integer>> found;
  /** The documented packages in layer order → the packages each may use. */
  private static Map<String, Set<String>> documented;

  @BeforeAll
  static void read() throws IOException {
    found = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String code = withoutCommentsAndStrings(Files.readString(f));
        Matcher pkg = PACKAGE.matcher(code);
        if (!pkg.find() || pkg.group(1).startsWith("proto")) {
          continue;
        }
        String from = pkg.group(1);
        Map<String, Integer> uses = found.computeIfAbsent(from, k -> new TreeMap<>());
        Set<String> inFile = new TreeSet<>();
        Matcher ref = REFERENCE.matcher(code);
        while (ref.find()) {
          String to = ref.group(1);
          if (!to.equals(from) && !to.startsWith("proto")) {
            inFile.add(to);
          }
        }
        inFile.forEach(to -> uses.merge(to, 1, Integer::sum));
      }
    }
    documented = new LinkedHashMap<>();
    for (String line : Files.readAllLines(MAP)) {
      Matcher row = ROW.matcher(line);
      if (row.matches()) {
        documented.put(row.group(1).replace('/', '.'), allowed(row.group(2).trim()));
      }
    }
    String graph = found.entrySet().stream()
        .map(e -> String.format("%-15s -> %s", e.getKey(), e.getValue().entrySet().stream()
            .map(u -> u.getKey() + "(" + u.getValue() + ")").collect(Collectors.joining(" "))))
        .collect(Collectors.joining("\n", "", "\n"));
    System.out.print("Package graph of src/main/java/io/expresso (package -> packages used (files)):\n" + graph);
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target/package-graph.txt"), graph);
  }

  /** "—" is none; "everything above" is every package listed before; else names, comma separated. */
  private static Set<String> allowed(String column) {
    Set<String> names = new TreeSet<>();
    if (column.equals("everything above")) {
      names.addAll(documented.keySet());
    } else if (!column.equals("—")) {
      for (String name : column.replace("`", "").split(",")) {
        names.add(name.trim().replaceAll("/$", "").replace('/', '.'));
      }
    }
    return names;
  }

  private static String withoutCommentsAndStrings(String source) {
    return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ")
        .replaceAll("\"(?:\\\\.|[^\"\\\\\\n])*\"", "\"\"");
  }

  @Test
  void everyPackageIsOnTheMapAndTheMapNamesOnlyPackages() {
    assertThat(documented.keySet()).as("packages in docs/architecture.md's table")
        .containsExactlyInAnyOrderElementsOf(found.keySet());
  }

  @Test
  void eachPackageUsesOnlyWhatTheMapAllowsAndOnlyPackagesAboveIt() {
    List<String> order = new ArrayList<>(documented.keySet());
    List<String> violations = new ArrayList<>();
    found.forEach((from, uses) -> {
      Set<String> allowed = documented.getOrDefault(from, Set.of());
      for (String to : uses.keySet()) {
        if (!allowed.contains(to)) {
          violations.add(from + " uses " + to + ", which docs/architecture.md does not allow it");
        }
      }
    });
    documented.forEach((from, allowed) -> {
      for (String to : allowed) {
        if (order.indexOf(to) < 0 || order.indexOf(to) >= order.indexOf(from)) {
          violations.add(from + " may use " + to + ", which is not listed above it");
        }
      }
    });
    assertThat(violations).isEmpty();
  }

  @Test
  void theEngineUsesNoOtherPackageOfExpresso() {
    assertThat(found.get("engine")).isEmpty();
    assertThat(documented.get("engine")).isEmpty();
  }

  /**
   * DJL's gradient collector is one per process (a static flag): a trainer that used it would fail
   * beside another training, so every trainer records its own thread's gradients (ThreadGradients).
   */
  @Test
  void noTrainerUsesDjlsProcessWideGradientCollector() throws IOException {
    List<String> users = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        if (withoutCommentsAndStrings(Files.readString(f)).contains("newGradientCollector(")) {
          users.add(SOURCES.relativize(f).toString());
        }
      }
    }
    assertThat(users).as("sources calling newGradientCollector(); use engine.ThreadGradients").isEmpty();
  }

  @Test
  void theGraphHasNoCircle() {
    Map<String, Integer> state = new TreeMap<>();
    List<String> circles = new ArrayList<>();
    for (String start : found.keySet()) {
      visit(start, new ArrayList<>(), state, circles);
    }
    assertThat(circles).isEmpty();
  }

  private static void visit(String node, List<String> path, Map<String, Integer> state, List<String> circles) {
    int s = state.getOrDefault(node, 0);
    if (s == 2) {
      return;
    }
    if (s == 1) {
      circles.add(String.join(" -> ", path.subList(path.indexOf(node), path.size())) + " -> " + node);
      return;
    }
    state.put(node, 1);
    path.add(node);
    for (String next : found.getOrDefault(node, Map.of()).keySet()) {
      visit(next, path, state, circles);
    }
    path.remove(path.size() - 1);
    state.put(node, 2);
  }

  static {
    if (!Files.isDirectory(SOURCES)) {
      throw new UncheckedIOException(new IOException("run from the repository root: " + SOURCES + " not found"));
    }
  }
}

package io.expresso.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.report.Table;
import io.expresso.suite.Category;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Suite;
import io.expresso.wl.PairDistinguisher;
import io.expresso.wl.WlMethods;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code expresso baseline}: run one exact WL-family baseline over a suite and count, per
 * category, the pairs it distinguishes (as in the BREC paper's tables).
 */
@Command(name = "baseline", mixinStandardHelpOptions = true,
    description = "Run an exact non-GNN baseline (WL family) on an expressiveness suite and count"
        + " the distinguished pairs per category.")
final class BaselineCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--method", required = true, paramLabel = "METHOD",
      description = "1-wl, 3-wl (2-FWL), 4-wl (3-FWL, graphs up to 40 vertices), spd-wl, s3, s4, n1, n2, m1")
  String method;

  @CommandLine.Mixin SuiteOptions suiteOptions = new SuiteOptions();

  @Option(names = "--json", description = "print one JSON object instead of a table")
  boolean json;

  /** Counts for one category. */
  record Row(String name, int pairs, int distinguished) {}

  @Override
  public Integer call() throws Exception {
    PairDistinguisher distinguisher;
    try {
      distinguisher = WlMethods.byName(method);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Suite suite = suiteOptions.load(spec);

    List<Row> rows = new ArrayList<>();
    long nanos = 0;
    for (Category c : suite.categories()) {
      int distinguished = 0;
      for (GraphPair p : c.pairs()) {
        long start = System.nanoTime();
        boolean d;
        try {
          d = distinguisher.distinguishes(p.first(), p.second());
        } catch (IllegalArgumentException | IllegalStateException e) {
          throw new IllegalStateException("pair " + p.index() + " (" + c.name() + "): " + e.getMessage(), e);
        }
        nanos += System.nanoTime() - start;
        distinguished += d ? 1 : 0;
      }
      rows.add(new Row(c.name(), c.pairs().size(), distinguished));
    }
    double seconds = nanos / 1e9;
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? json(distinguisher.name(), suiteOptions.suiteSpec, rows, seconds) : table(distinguisher.name(), rows, seconds));
    out.flush();
    return 0;
  }


  static String table(String method, List<Row> rows, double seconds) {
    Table t = new Table("category", "pairs", "distinguished", "%");
    int pairs = 0;
    int distinguished = 0;
    for (Row r : rows) {
      t.row(r.name(), String.valueOf(r.pairs()), String.valueOf(r.distinguished()), percent(r.distinguished(), r.pairs()));
      pairs += r.pairs();
      distinguished += r.distinguished();
    }
    t.separator().row("total", String.valueOf(pairs), String.valueOf(distinguished), percent(distinguished, pairs));
    return "method " + method + "\n" + t.render()
        + String.format(Locale.ROOT, "refinement time %.3f s%n", seconds);
  }

  private static String percent(int part, int whole) {
    return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
  }

  static String json(String method, String suite, List<Row> rows, double seconds) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode root = mapper.createObjectNode();
    root.put("method", method);
    root.put("suite", suite);
    ArrayNode categories = root.putArray("categories");
    int pairs = 0;
    int distinguished = 0;
    for (Row r : rows) {
      categories.addObject().put("name", r.name()).put("pairs", r.pairs()).put("distinguished", r.distinguished());
      pairs += r.pairs();
      distinguished += r.distinguished();
    }
    root.putObject("total").put("pairs", pairs).put("distinguished", distinguished);
    root.put("elapsed_seconds", seconds);
    return mapper.writeValueAsString(root) + System.lineSeparator();
  }
}

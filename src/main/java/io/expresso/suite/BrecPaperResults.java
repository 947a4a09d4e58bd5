package io.expresso.suite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * BREC's leaderboard as the paper prints it (Wang &amp; Zhang, "Towards Better Evaluation of GNN
 * Expressiveness with BREC Dataset", Table 2): pairs distinguished per major category by each
 * model's best configuration and seed, so that our runs can be shown beside them. The table itself,
 * with how it was read from the paper, is the resource {@value #TABLE}: the one copy, which the
 * Python package reads too.
 *
 * <p>The paper groups four of our categories into one: its "Regular" (140 pairs) is our Regular
 * (100: simple regular and strongly regular) plus 4-Vertex Condition (20) plus Distance Regular
 * (20). It does not split them, so a comparison is only possible on that 140-pair total.
 *
 * <p>GIN and plain 1-WL are not in Table 2; since every BREC graph is 1-WL-indistinguishable
 * (abstract: "800 1-WL-indistinguishable graphs"), their row is the 1-WL bound, 0 everywhere,
 * marked {@link Row#bound()}.
 */
public final class BrecPaperResults {

  /** The paper's category names and sizes, in its column order. */
  public static final List<String> CATEGORIES = List.of("Basic", "Regular", "Extension", "CFI");

  public static final List<Integer> SIZES = List.of(60, 140, 100, 100);

  /** Our categories that make up the paper's 140-pair "Regular". */
  public static final List<String> PAPER_REGULAR = List.of("Regular", "4-Vertex Condition", "Distance Regular");

  /** Our rows of a BREC comparison in BREC's column order: Regular split in three, then the paper's 140-pair grouping. */
  public static final List<String> COMPARISON_ROWS = List.of("Basic", "Regular", "4-Vertex Condition", "Distance Regular",
      "Regular (paper grouping)", "Extension", "CFI");

  /**
   * The name under which the paper has a count comparable to one of our rows: its four categories,
   * the 140-pair Regular, the total; our Regular (100 pairs) and its two companions have none.
   */
  public static String paperName(String row) {
    return switch (row) {
      case "Regular (paper grouping)" -> "Regular";
      case "total" -> "total";
      case "Regular" -> "";
      default -> row;
    };
  }

  /** The pairs behind one of the paper's counts ({@link #CATEGORIES} or "total"); 0 for any other name. */
  public static int pairs(String paperName) {
    int i = CATEGORIES.indexOf(paperName);
    if (i >= 0) {
      return SIZES.get(i);
    }
    return paperName.equals("total") ? SIZES.stream().mapToInt(Integer::intValue).sum() : 0;
  }

  /** Our BREC category names (suite order of the full file). */
  public static final List<String> OUR_CATEGORIES =
      List.of("Basic", "Regular", "Extension", "CFI", "4-Vertex Condition", "Distance Regular");

  /**
   * One row of Table 2.
   *
   * @param model the paper's name for the model
   * @param basic of 60, regular of 140 (paper grouping), extension of 100, cfi of 100
   * @param bound true for the 1-WL bound row, which is not in Table 2 but follows from BREC's design
   */
  public record Row(String model, int basic, int regular, int extension, int cfi, boolean bound) {

    public int total() {
      return basic + regular + extension + cfi;
    }

    /** The count for one of the paper's categories ({@link #CATEGORIES}) or "total"; empty for any other name. */
    public Optional<Integer> count(String paperCategory) {
      return switch (paperCategory) {
        case "Basic" -> Optional.of(basic);
        case "Regular" -> Optional.of(regular);
        case "Extension" -> Optional.of(extension);
        case "CFI" -> Optional.of(cfi);
        case "total" -> Optional.of(total());
        default -> Optional.empty();
      };
    }

    /** How the report names the row: the paper's model name, or the bound it is. */
    public String label() {
      return bound ? "1-WL bound" : model;
    }
  }

  /** The resource holding Table 2, beside this class. */
  public static final String TABLE = "brec-table2.csv";

  private static final List<Row> ROWS;
  /** Other names of a row's model (lower case) -> the row's model, as the table's also_called lists them. */
  private static final Map<String, String> ALSO_CALLED;

  static {
    List<Row> rows = new ArrayList<>();
    Map<String, String> also = new LinkedHashMap<>();
    read(rows, also);
    ROWS = List.copyOf(rows);
    ALSO_CALLED = Map.copyOf(also);
  }

  private static final Row ONE_WL_BOUND = new Row("1-WL", 0, 0, 0, 0, true);

  private BrecPaperResults() {}

  /** Reads {@link #TABLE}: comment lines start with '#', then a header, then one row per model. */
  private static void read(List<Row> rows, Map<String, String> also) {
    InputStream in = BrecPaperResults.class.getResourceAsStream(TABLE);
    if (in == null) {
      throw new IllegalStateException(TABLE + " is missing from the classpath (src/main/resources/io/expresso/suite)");
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      boolean header = true;
      while ((line = r.readLine()) != null) {
        number++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        if (header) {
          header = false;
          continue;
        }
        String[] f = line.split(",", -1);
        if (f.length != 7) {
          throw new IllegalStateException(TABLE + " line " + number + ": 7 fields expected, got " + f.length);
        }
        Row row = new Row(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
            Integer.parseInt(f[4]), false);
        if (row.total() != Integer.parseInt(f[5])) {
          throw new IllegalStateException("BREC Table 2 row " + row.model() + " sums to " + row.total()
              + ", the paper prints " + f[5] + " (" + TABLE + " line " + number + ")");
        }
        rows.add(row);
        for (String name : f[6].strip().split(" +")) {
          if (!name.isEmpty()) {
            also.put(name, row.model());
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      throw new IllegalStateException(TABLE + ": " + e.getMessage(), e);
    }
  }

  /** Every row of Table 2, in the paper's order. */
  public static List<Row> rows() {
    return ROWS;
  }

  /**
   * The resource naming the built-in models a BREC leaderboard runs when none are named ({@code
   * experiment brec}, the Python client's {@code leaderboard()}), beside this class.
   */
  public static final String LEADERBOARD_MODELS = "brec-leaderboard-models.txt";

  /** The model names of {@link #LEADERBOARD_MODELS}, in its order: every built-in model with a row in Table 2. */
  public static List<String> leaderboardModels() {
    InputStream in = BrecPaperResults.class.getResourceAsStream(LEADERBOARD_MODELS);
    if (in == null) {
      throw new IllegalStateException(LEADERBOARD_MODELS + " is missing from the classpath (src/main/resources/io/expresso/suite)");
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return r.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    } catch (IOException e) {
      throw new IllegalStateException(LEADERBOARD_MODELS + ": " + e.getMessage(), e);
    }
  }

  /**
   * The paper's row for one of our methods or model specs, by architecture name (the spec up to
   * its first ':', so {@code ppgn:layers=5,hidden=32} is PPGN): exact methods 3-wl, spd-wl, s3, s4,
   * n1, n2, m1; GNNs ppgn, ngnn-de (DE+NGNN) and the paper's names in any case or a name the
   * table's also_called column lists; 1-wl and gin the 1-WL bound. Empty for anything the paper
   * did not run (4-wl, for one).
   */
  public static Optional<Row> forMethod(String method) {
    String arch = method.strip().toLowerCase(Locale.ROOT);
    int colon = arch.indexOf(':');
    if (colon >= 0) {
      arch = arch.substring(0, colon).strip();
    }
    if (arch.equals("1-wl") || arch.equals("gin")) {
      return Optional.of(ONE_WL_BOUND);
    }
    String name = ALSO_CALLED.getOrDefault(arch, arch).toLowerCase(Locale.ROOT);
    for (Row r : ROWS) {
      if (r.model().toLowerCase(Locale.ROOT).equals(name)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /**
   * True when a suite is BREC: loaded from a BREC file ({@code brec:} or {@code brec-raw:} spec,
   * {@link SuiteSpecs}) and every category one of {@link #OUR_CATEGORIES}. Excerpts and variants
   * (fewer categories) are BREC too; the built-in suite, which also has a "CFI", is not.
   */
  public static boolean isBrec(String suiteId, List<String> categories) {
    boolean brecFile = suiteId.startsWith("brec:") || suiteId.startsWith("brec-raw:");
    return brecFile && !categories.isEmpty() && OUR_CATEGORIES.containsAll(categories);
  }

  /** The paper's category an our-category counts toward ("Basic" → Basic, "Distance Regular" → Regular). */
  public static Optional<String> paperCategory(String ourCategory) {
    if (PAPER_REGULAR.contains(ourCategory)) {
      return Optional.of("Regular");
    }
    return CATEGORIES.contains(ourCategory) ? Optional.of(ourCategory) : Optional.empty();
  }
}

package io.expresso.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table with aligned columns, for people reading a terminal. Cells often come from
 * task messages, so each passes {@link Escape#terminal}: no newline breaks a row, no escape
 * sequence reaches the terminal.
 */
public final class Table {

  private final String[] header;
  private final List<String[]> rows = new ArrayList<>();
  private final List<Integer> separatorsBefore = new ArrayList<>();

  public Table(String... header) {
    this.header = clean(header);
  }

  public Table row(String... cells) {
    if (cells.length != header.length) {
      throw new IllegalArgumentException(cells.length + " cells for " + header.length + " columns");
    }
    rows.add(clean(cells));
    return this;
  }

  /** A horizontal rule before the next row (e.g. before a total). */
  public Table separator() {
    separatorsBefore.add(rows.size());
    return this;
  }

  public String render() {
    int[] width = new int[header.length];
    for (int c = 0; c < header.length; c++) {
      width[c] = header[c].length();
      for (String[] r : rows) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    line(sb, header, width);
    rule(sb, width);
    for (int i = 0; i < rows.size(); i++) {
      if (separatorsBefore.contains(i)) {
        rule(sb, width);
      }
      line(sb, rows.get(i), width);
    }
    return sb.toString();
  }

  private static String[] clean(String[] cells) {
    String[] out = new String[cells.length];
    for (int c = 0; c < cells.length; c++) {
      out[c] = Escape.terminal(cells[c]);
    }
    return out;
  }

  private static void line(StringBuilder sb, String[] cells, int[] width) {
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        sb.append("  ");
      }
      // First column left-aligned (names), the rest right-aligned (numbers).
      String fmt = c == 0 ? "%-" + width[c] + "s" : "%" + width[c] + "s";
      sb.append(String.format(fmt, cells[c]));
    }
    sb.append('\n');
  }

  private static void rule(StringBuilder sb, int[] width) {
    int total = 0;
    for (int w : width) {
      total += w;
    }
    sb.append("-".repeat(total + 2 * (width.length - 1))).append('\n');
  }
}

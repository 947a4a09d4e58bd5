package io.expresso.report;

/**
 * Escaping of task-supplied strings, one method per output kind. A publisher chooses experiment
 * ids, suite ids, categories and model specs; none of them may break a table, inject markup or
 * script, or send control sequences to a terminal.
 */
public final class Escape {

  private Escape() {}

  /**
   * For a terminal: control characters (ESC and the rest of C0 and C1, so no ANSI sequence),
   * format characters (bidirectional overrides) and line or paragraph separators are written as
   * visible {@code \\uXXXX}; newlines, carriage returns and tabs as {@code \\n}, {@code \\r},
   * {@code \\t}. What is left prints on one line as the characters it is.
   */
  public static String terminal(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String replacement = switch (c) {
        case '\n' -> "\\n";
        case '\r' -> "\\r";
        case '\t' -> "\\t";
        default -> unsafe(c) ? String.format("\\u%04x", (int) c) : null;
      };
      if (replacement != null && sb == null) {
        sb = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (sb != null) {
        if (replacement != null) {
          sb.append(replacement);
        } else {
          sb.append(c);
        }
      }
    }
    return sb == null ? s : sb.toString();
  }

  /**
   * For Markdown text: a table cell, a heading or a list item. Characters Markdown would read as
   * syntax ({@code \ ` * _ [ ] < > | ~ &}) get a backslash (CommonMark escapes any ASCII
   * punctuation so), and the string stays on one line ({@link #terminal}, which also keeps a
   * report printed with {@code cat} free of terminal control sequences).
   */
  public static String markdown(String s) {
    String line = terminal(s);
    StringBuilder sb = new StringBuilder(line.length() + 8);
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if ("\\`*_[]<>|~&".indexOf(c) >= 0) {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /**
   * For HTML text and attribute values: {@code & < > " '} as character references, on one line
   * without control characters ({@link #terminal}), so a report read with {@code cat} is safe too.
   */
  public static String html(String text) {
    String s = terminal(text);
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean unsafe(char c) {
    return switch (Character.getType(c)) {
      case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> true;
      default -> false;
    };
  }
}

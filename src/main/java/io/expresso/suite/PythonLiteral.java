package io.expresso.suite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parser for the Python literal in an NPY header: a dict of strings, booleans, {@code None},
 * integers, tuples (of integers, as a shape: {@code long[]}; otherwise a list) and lists. Anything else is rejected
 * with {@link IllegalArgumentException} naming the position.
 */
final class PythonLiteral {

  private final String s;
  private int pos;

  PythonLiteral(String s) {
    this.s = s;
  }

  /** Parses the whole text as one dict literal. */
  Map<String, Object> dict() {
    skipSpace();
    Object v = value();
    skipSpace();
    if (pos != s.length()) {
      throw error("unexpected text after the dict");
    }
    if (!(v instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("header is not a dict literal");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) m;
    return map;
  }

  private Object value() {
    skipSpace();
    if (pos >= s.length()) {
      throw error("text ends where a value was expected");
    }
    char c = s.charAt(pos);
    if (c == '{') {
      return parseDict();
    } else if (c == '(') {
      return parseTuple();
    } else if (c == '[') {
      return parseList();
    } else if (c == '\'' || c == '"') {
      return parseString();
    } else if (c == '-' || Character.isDigit(c)) {
      return parseInt();
    } else if (s.startsWith("True", pos)) {
      pos += 4;
      return Boolean.TRUE;
    } else if (s.startsWith("False", pos)) {
      pos += 5;
      return Boolean.FALSE;
    } else if (s.startsWith("None", pos)) {
      pos += 4;
      return null;
    }
    throw error("unexpected character '" + c + "'");
  }

  private Map<String, Object> parseDict() {
    pos++; // '{'
    Map<String, Object> map = new LinkedHashMap<>();
    while (true) {
      skipSpace();
      if (peek() == '}') {
        pos++;
        return map;
      }
      Object key = value();
      if (!(key instanceof String k)) {
        throw error("dict key is not a string");
      }
      skipSpace();
      expect(':');
      map.put(k, value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else if (peek() != '}') {
        throw error("expected ',' or '}'");
      }
    }
  }

  /** A tuple of integers (a shape) as {@code long[]}; any other tuple (a structured dtype) as a list. */
  private Object parseTuple() {
    pos++; // '('
    List<Object> items = new ArrayList<>();
    while (true) {
      skipSpace();
      if (peek() == ')') {
        pos++;
        return items.stream().allMatch(Long.class::isInstance)
            ? items.stream().mapToLong(Long.class::cast).toArray()
            : items;
      }
      items.add(value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else if (peek() != ')') {
        throw error("expected ',' or ')'");
      }
    }
  }

  private List<Object> parseList() {
    pos++; // '['
    List<Object> items = new ArrayList<>();
    while (true) {
      skipSpace();
      if (peek() == ']') {
        pos++;
        return items;
      }
      items.add(value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else if (peek() != ']') {
        throw error("expected ',' or ']'");
      }
    }
  }

  private String parseString() {
    char quote = s.charAt(pos++);
    StringBuilder sb = new StringBuilder();
    while (pos < s.length() && s.charAt(pos) != quote) {
      char c = s.charAt(pos++);
      if (c == '\\' && pos < s.length()) {
        c = s.charAt(pos++);
      }
      sb.append(c);
    }
    if (pos >= s.length()) {
      throw error("unterminated string");
    }
    pos++;
    return sb.toString();
  }

  private Long parseInt() {
    int start = pos;
    if (s.charAt(pos) == '-') {
      pos++;
    }
    while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
      pos++;
    }
    if (pos < s.length() && s.charAt(pos) == 'L') {
      pos++; // Python 2 long suffix, as very old NumPy wrote it
      return Long.parseLong(s.substring(start, pos - 1));
    }
    try {
      return Long.parseLong(s.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("bad integer '" + s.substring(start, pos) + "'");
    }
  }

  private char peek() {
    if (pos >= s.length()) {
      throw error("text ends early");
    }
    return s.charAt(pos);
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipSpace() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at position " + pos + " of " + s.strip());
  }
}

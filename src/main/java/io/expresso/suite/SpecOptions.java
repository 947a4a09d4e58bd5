package io.expresso.suite;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options after a suite spec's path: {@code <path>#key=value,key=value}. A comma-separated
 * piece without {@code =} continues the previous value, so that lists such as {@code
 * indices=0,60,110-112} need no quoting. The options start at the first {@code #} followed by a
 * known key, so a path may itself hold a {@code #}.
 *
 * @param path the spec's path, without options
 * @param values each option given, by key
 */
record SpecOptions(String path, Map<String, String> values) {

  /**
   * Splits {@code rest} (the spec without its form prefix) into path and options.
   *
   * @param spec the whole spec, for error messages
   * @param keys the keys this form takes
   * @throws IllegalArgumentException on an unknown or repeated key, or an option with no value
   */
  static SpecOptions parse(String spec, String rest, List<String> keys, String forms) {
    int hash = optionsStart(rest, keys);
    if (hash < 0) {
      return new SpecOptions(rest, Map.of());
    }
    Map<String, String> values = new LinkedHashMap<>();
    String last = null;
    for (String piece : rest.substring(hash + 1).split(",", -1)) {
      int eq = piece.indexOf('=');
      if (eq < 0) {
        if (last == null) {
          throw new IllegalArgumentException("suite spec '" + spec + "': '" + piece + "' is not key=value; valid forms: " + forms);
        }
        values.put(last, values.get(last) + "," + piece);
        continue;
      }
      String key = piece.substring(0, eq).strip();
      if (!keys.contains(key)) {
        throw new IllegalArgumentException("suite spec '" + spec + "': unknown option '" + key + "' (this form takes "
            + String.join(", ", keys) + "); valid forms: " + forms);
      }
      if (values.containsKey(key)) {
        throw new IllegalArgumentException("suite spec '" + spec + "': option '" + key + "' given twice");
      }
      values.put(key, piece.substring(eq + 1));
      last = key;
    }
    values.forEach((k, v) -> {
      if (v.isBlank()) {
        throw new IllegalArgumentException("suite spec '" + spec + "': option '" + k + "' has no value; valid forms: " + forms);
      }
    });
    return new SpecOptions(rest.substring(0, hash), values);
  }

  private static int optionsStart(String rest, List<String> keys) {
    for (int i = rest.indexOf('#'); i >= 0; i = rest.indexOf('#', i + 1)) {
      for (String k : keys) {
        if (rest.startsWith(k + "=", i + 1)) {
          return i;
        }
      }
    }
    return -1;
  }

  /** The option's value, or {@code fallback} if it is not given. */
  String get(String key, String fallback) {
    return values.getOrDefault(key, fallback);
  }

  /** An integer option, or {@code fallback}; a non-number is an {@link IllegalArgumentException}. */
  long number(String key, long fallback, String spec, String forms) {
    String v = values.get(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("suite spec '" + spec + "': " + key + "=" + v + " is not an integer; valid forms: " + forms);
    }
  }
}

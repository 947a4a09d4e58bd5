package io.expresso.metrics;

import io.expresso.suite.SuiteSpecs;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps metric labels whose values come from task or result messages (experiment, suite,
 * category, model, pattern, space, budget, reason, kind) bounded: every series is a time series in
 * Prometheus, and a publisher must not be able to create them without end or leak file paths into
 * dashboards.
 *
 * <p>Each value is sanitised (printable, whitespace collapsed, at most {@value #MAX_LENGTH}
 * characters, never empty); the first {@code maxValuesPerLabel} distinct values of a label in this
 * process keep their name, later ones fold into {@value #OTHER}. Per-label caps alone still allow
 * their product, so each meter also keeps at most {@code maxSeriesPerMeter} label combinations;
 * past that a new combination folds every guarded label into {@value #OTHER}. Once a value or
 * combination is admitted it stays admitted, so a gauge that goes up and down always hits the
 * same series.
 */
public final class LabelGuard {

  private static final Logger LOG = LoggerFactory.getLogger(LabelGuard.class);

  /** Where values past a cap go. */
  public static final String OTHER = "other";
  /** What an empty value becomes: an empty label value is the same as no label in Prometheus. */
  public static final String NONE = "none";
  /** Longest label value, in characters; longer ones are cut. */
  public static final int MAX_LENGTH = 64;
  public static final int DEFAULT_MAX_VALUES_PER_LABEL = 100;
  public static final int DEFAULT_MAX_SERIES_PER_METER = 10_000;
  /** System property (or environment variable {@code EXPRESSO_METRICS_MAX_LABEL_VALUES}). */
  public static final String MAX_VALUES_PROPERTY = "expresso.metrics.max-label-values";
  /** System property (or environment variable {@code EXPRESSO_METRICS_MAX_SERIES_PER_METER}). */
  public static final String MAX_SERIES_PROPERTY = "expresso.metrics.max-series-per-meter";

  private final int maxValuesPerLabel;
  private final int maxSeriesPerMeter;
  private final Map<String, Set<String>> valuesByLabel = new ConcurrentHashMap<>();
  private final Map<String, Set<List<String>>> seriesByMeter = new ConcurrentHashMap<>();
  /** Labels and meters that have folded a value already: warned once each. */
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  public LabelGuard(int maxValuesPerLabel, int maxSeriesPerMeter) {
    if (maxValuesPerLabel < 1 || maxSeriesPerMeter < 1) {
      throw new IllegalArgumentException("metric label caps must be at least 1, got " + maxValuesPerLabel
          + " values per label and " + maxSeriesPerMeter + " series per meter");
    }
    this.maxValuesPerLabel = maxValuesPerLabel;
    this.maxSeriesPerMeter = maxSeriesPerMeter;
  }

  /** The caps from the system properties or environment variables, else the defaults. */
  public static LabelGuard fromEnvironment() {
    return new LabelGuard(setting(MAX_VALUES_PROPERTY, DEFAULT_MAX_VALUES_PER_LABEL),
        setting(MAX_SERIES_PROPERTY, DEFAULT_MAX_SERIES_PER_METER));
  }

  private static int setting(String property, int fallback) {
    String env = "EXPRESSO_METRICS_" + property.substring("expresso.metrics.".length())
        .replace('-', '_').toUpperCase(Locale.ROOT);
    String text = System.getProperty(property, System.getenv(env));
    if (text == null || text.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(property + " (or " + env + ") must be an integer, got '" + text + "'");
    }
  }

  public int maxValuesPerLabel() {
    return maxValuesPerLabel;
  }

  public int maxSeriesPerMeter() {
    return maxSeriesPerMeter;
  }

  /** The value to use for {@code label}: sanitised, and {@value #OTHER} once the label is full. */
  public String value(String label, String raw) {
    String v = sanitise(raw);
    if (v.equals(OTHER)) {
      return v;
    }
    Set<String> admitted = valuesByLabel.computeIfAbsent(label, k -> ConcurrentHashMap.newKeySet());
    if (admitted.contains(v)) {
      return v;
    }
    synchronized (admitted) {
      if (admitted.contains(v) || admitted.size() < maxValuesPerLabel && admitted.add(v)) {
        return v;
      }
    }
    warnOnce("label " + label, "metric label '" + label + "' has reached its cap of " + maxValuesPerLabel
        + " values; further values are reported as '" + OTHER + "' (" + MAX_VALUES_PROPERTY + ")");
    return OTHER;
  }

  /**
   * Tags for one series of {@code meter}, given as label, value, label, value...: each value as
   * {@link #value}, and all of them {@value #OTHER} when the combination is new and the meter
   * already has its cap of combinations. Labels from closed sets (statistic, outcome) are added by
   * the caller.
   */
  public Tags series(String meter, String... labelsAndValues) {
    if (labelsAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("labels and values come in pairs: " + labelsAndValues.length);
    }
    List<String> values = new ArrayList<>(labelsAndValues.length / 2);
    for (int i = 0; i < labelsAndValues.length; i += 2) {
      values.add(value(labelsAndValues[i], labelsAndValues[i + 1]));
    }
    Set<List<String>> admitted = seriesByMeter.computeIfAbsent(meter, k -> ConcurrentHashMap.newKeySet());
    boolean ok = admitted.contains(values);
    if (!ok) {
      synchronized (admitted) {
        ok = admitted.contains(values) || admitted.size() < maxSeriesPerMeter && admitted.add(values);
      }
    }
    String[] tags = new String[labelsAndValues.length];
    for (int i = 0; i < labelsAndValues.length; i += 2) {
      tags[i] = labelsAndValues[i];
      tags[i + 1] = ok ? values.get(i / 2) : OTHER;
    }
    if (!ok) {
      warnOnce("meter " + meter, "meter '" + meter + "' has reached its cap of " + maxSeriesPerMeter
          + " label combinations; further ones are reported with every label '" + OTHER + "' ("
          + MAX_SERIES_PROPERTY + ")");
    }
    return Tags.of(tags);
  }

  private void warnOnce(String key, String message) {
    if (warned.add(key)) {
      LOG.warn(message);
    }
  }

  /**
   * A label value that is safe to expose: control, format (such as bidirectional overrides) and
   * separator characters become spaces, runs of whitespace one space, at most {@value #MAX_LENGTH}
   * characters (never half a surrogate pair); empty becomes {@value #NONE}.
   */
  public static String sanitise(String raw) {
    if (raw == null) {
      return NONE;
    }
    if (plain(raw)) {
      return raw; // the usual case, checked without copying: every task's meters pass here
    }
    StringBuilder sb = new StringBuilder(Math.min(raw.length(), MAX_LENGTH));
    boolean space = false;
    for (int i = 0; i < raw.length() && sb.length() < MAX_LENGTH; ) {
      int cp = raw.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isWhitespace(cp) || !printable(cp)) {
        space = sb.length() > 0;
        continue;
      }
      if (space) {
        sb.append(' ');
        space = false;
      }
      if (sb.length() + Character.charCount(cp) > MAX_LENGTH) {
        break;
      }
      sb.appendCodePoint(cp);
    }
    String v = sb.toString().strip();
    return v.isEmpty() ? NONE : v;
  }

  /** Short, printable ASCII, not blank, single spaces only inside. */
  private static boolean plain(String s) {
    int n = s.length();
    if (n == 0 || n > MAX_LENGTH || s.charAt(0) == ' ' || s.charAt(n - 1) == ' ') {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < ' ' || c > '~' || c == ' ' && s.charAt(i - 1) == ' ') {
        return false;
      }
    }
    return true;
  }

  private static boolean printable(int cp) {
    return switch (Character.getType(cp)) {
      case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
          Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
      default -> true;
    };
  }

  /** The label for a suite spec: its short name, never a path ({@link SuiteSpecs#shortName}). */
  public static String suiteName(String spec) {
    return spec == null ? NONE : SuiteSpecs.shortName(spec);
  }

  /**
   * The label for a model spec or method: the architecture or method name ({@code gin},
   * {@code ppgn}, {@code 3-wl}), without its parameters, which can be long, or a path.
   */
  public static String modelName(String spec) {
    if (spec == null) {
      return NONE;
    }
    String s = spec.strip();
    int colon = s.indexOf(':');
    if (colon >= 0) {
      s = s.substring(0, colon);
    }
    s = s.substring(Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\')) + 1);
    return s.toLowerCase(Locale.ROOT);
  }
}
